import { initContract } from '@ts-rest/core';
import { authContract } from './auth.contract';
import { identitySettingsContract } from './identity-settings.contract';
import { messagesContract } from './messages.contract';

export * from './permissions';
export * from './session.schemas';
export * from './discovery.schemas';
export * from './messages.contract';
export * from './auth.contract';
export * from './identity-settings.contract';
export * from '../customers/customers.contract';
export * from '../organizations/organizations.contract';

const c = initContract();

/** Identity: sign-in, its settings and the message outbox it writes to. */
export const identityContract = c.router({ auth: authContract, settings: identitySettingsContract, messages: messagesContract });
