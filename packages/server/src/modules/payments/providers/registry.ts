import type { ProviderDefinition, ProviderType } from '../provider';
import { simulatedDefinition } from './simulated/simulated.provider';

/** Every provider this server speaks to, by type. An adapter joins by adding its definition here. */
export const PROVIDERS: Partial<Record<ProviderType, ProviderDefinition>> = {
  simulated: simulatedDefinition,
};

export const providerDefinition = (type: ProviderType): ProviderDefinition | undefined => PROVIDERS[type];
