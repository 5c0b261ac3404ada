export { Svc, SvcOperator, type SvcOperatorOptions } from './client';
export type { AccessTokenCredential, ApiKeyCredential, ClientOptions, ConnectionOptions, RequestOptions, RawRequest } from './core/request';
export {
  SvcError,
  InvalidRequestError,
  AuthenticationError,
  PermissionError,
  RateLimitError,
  IdempotencyError,
  ProviderError,
  ApiError,
  ConnectionError,
} from './core/errors';
export { Page, PagePromise } from './core/pagination';
export type { Expanded, Resources, RouteMethod, RouteTypes } from './core/types';
export type { ErrorType, OperatorResources, SvcEvent, TenantResources } from './contract-types';
export { signCustomerToken, type SignCustomerTokenArgs } from './customer-tokens';
export { accessTokenVerifier, type AccessTokenClaims } from './access-tokens';
export { constructEvent } from './webhooks';
export { WebhookVerificationError, type WebhookEvent } from '@svc/webhook-verify';
