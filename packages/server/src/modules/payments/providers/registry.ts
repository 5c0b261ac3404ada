import type { ProviderDefinition, ProviderType } from '../provider';
import { mpesaDefinition } from './mpesa/mpesa.provider';
import { paystackDefinition } from './paystack/paystack.provider';
import { simulatedDefinition } from './simulated/simulated.provider';
import { stripeDefinition } from './stripe/stripe.provider';

/** Every provider this server speaks to, by type. An adapter joins by adding its definition here. */
export const PROVIDERS: Partial<Record<ProviderType, ProviderDefinition>> = {
  simulated: simulatedDefinition,
  mpesa: mpesaDefinition,
  paystack: paystackDefinition,
  stripe: stripeDefinition,
};

export const providerDefinition = (type: ProviderType): ProviderDefinition | undefined => PROVIDERS[type];
