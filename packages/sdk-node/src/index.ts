export { Svc } from './client';
export type { ClientOptions, RequestOptions, RawRequest } from './core/request';
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
export type { Expanded, Resources, RouteArgs, RouteMethod } from './core/types';
