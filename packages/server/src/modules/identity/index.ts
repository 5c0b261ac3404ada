import type { ModuleDefinition } from '../../core/modules/module-definition';
import { identityAuthSlots } from './auth/identity-resolvers';
import { customersRouter } from './customers/customers.router';
import { IdentityCaches } from './identity-caches';
import { identityCachesPart } from './identity-parts';
import { identityRouter } from './identity.router';
import { organizationsRouter } from './organizations/organizations.router';
import { tenantOwnerEmails } from './organizations/members.service';
import { registerRecipientRole } from '../messaging';

/**
 * Identity: sign-in (codes, email links, OpenID Connect), access tokens and their JWKS, sessions, the message
 * outbox, customers, organizations and members. It fills authentication's access-token and tenant-code slots.
 */
export const identityModule: ModuleDefinition = {
  name: 'identity',
  setup: (ctx, listener) => {
    identityCachesPart.set(ctx, new IdentityCaches(listener));
    Object.assign(ctx.auth, identityAuthSlots(ctx));
    // The service's notices to a tenant (a webhook endpoint disabled) go to its owners.
    registerRecipientRole(ctx, 'tenant_owners', tenantOwnerEmails);
  },
  routers: (ctx) => ({ identity: identityRouter(ctx), customers: customersRouter(ctx), organizations: organizationsRouter(ctx) }),
};

// The outbox lives in the messaging module; products that already write through identity keep doing so.
export { writeMessage, writeMessages, type NewMessage } from '../messaging';
export { resolveAccessToken } from './auth/access-tokens';
export { rotateSigningKeys } from './auth/signing-keys';
// Organization-owned products (ticketing) find the organization and check a member's role in it.
export { getOrganizationRow } from './organizations/organizations.service';
export { organizationsGranting, requireOrganizationPermission } from './auth/member-permissions';
export {
  countOrganizationsWithHandle,
  findOrganizationByHandle,
  findOrganizationsByIds,
  hasVerifiedMemberContact,
  organizationAccessOf,
  organizationOwnerContacts,
} from './organizations/organization-lookups';
export type { OrganizationRow } from '../../db/identity.schema';
// Ticketing: a guest's orders become the customer's when they sign in with the same email or phone.
export { registerSignInListener, type SignInListener, type SignedInPerson } from './sign-in/sign-in-listeners';
// Ticketing: the buyer's and attendees' customers.
export { findCustomer, findOrCreateCustomerByEmail, findOrCreateCustomersByEmail } from './customers/customer-lookups';
// Fanbases: members' customers, inlined (`expand[]=customer`) and exported.
export { findCustomersByIds } from './customers/customer-lookups';
export { serializeCustomer } from './customers/customers.service';
