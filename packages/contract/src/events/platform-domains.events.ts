import { DomainSchema } from '../whitelabel/domains.schemas';
import { defineEvents } from './define-events';

export const domainEvents = defineEvents({
  'platform.domain.verified': { payload: DomainSchema, description: 'The domain\'s DNS TXT record holds its verification value; it is served once it reaches this deployment.' },
  'platform.domain.activated': { payload: DomainSchema, description: 'The domain reaches this deployment and is served.' },
  'platform.domain.failed': { payload: DomainSchema, description: 'Verification or routing failed, or the TXT record went away; `data.object.failure_reason` says which. It is not served.' },
});
