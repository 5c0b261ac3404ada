import { defineEvents } from './define-events';
import { EntitlementSchema } from '../access/entitlements.schemas';

// `data.object` is the entitlement as the Access routes return it.
export const accessEvents = defineEvents({
  'access.entitlement.granted': { payload: EntitlementSchema, description: 'Access was given.' },
  'access.entitlement.revoked': { payload: EntitlementSchema, description: 'Access was taken away.' },
  'access.entitlement.suspended': { payload: EntitlementSchema, description: 'Access was paused.' },
  'access.entitlement.resumed': { payload: EntitlementSchema, description: 'Paused access was restored.' },
  'access.entitlement.expired': { payload: EntitlementSchema, description: 'The end date passed.' },
  'access.entitlement.extended': {
    payload: EntitlementSchema,
    description: 'The end date moved later (a repeat grant with a later `ends_at`); `previous_attributes.ends_at` holds the old one.',
  },
});
