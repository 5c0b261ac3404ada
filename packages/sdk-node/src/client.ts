import { contract, type Contract } from '@svc/contract';
import { buildResources } from './core/resources';
import { accessTokenVerifier, type AccessTokenClaims } from './access-tokens';
import { signCustomerToken } from './customer-tokens';
import { constructEvent } from './webhooks';
import { type ClientOptions, type RawRequest, type RequestOptions, Transport } from './core/request';
import type { Resources } from './core/types';

// Every group of the contract (`keys`, `streams`, `access`, …) is a property of the client.
export interface Svc extends Resources<Contract> {}

/**
 * The Svc API for a tenant's server. Every route of the contract is a method, grouped as the API is:
 * `svc.keys.create({type: 'restricted', scopes: ['streams:read']})`.
 */
export class Svc {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    Object.assign(this, buildResources(this.transport, contract));
  }

  /** Signs customer tokens for viewers' browsers (publishable key + token). */
  readonly customerTokens = { sign: signCustomerToken };

  /** Checks webhook deliveries: `await svc.webhooks.constructEvent(rawBody, req.headers['svc-signature'], secret)`. */
  readonly webhooks = { constructEvent };

  private verifier?: (token: string) => Promise<AccessTokenClaims>;

  /**
   * Checks an identity access token's signature against the service's JWKS (jose's remote key set) and its
   * claims; answers the claims (`sub` person, `tid` tenant, `cus` customer) or throws jose's error.
   */
  verifyAccessToken(token: string): Promise<AccessTokenClaims> {
    this.verifier ??= accessTokenVerifier(this.transport.baseUrl);
    return this.verifier(token);
  }

  /** A raw call, for routes newer than this SDK. Answers the parsed JSON body. */
  request<T = unknown>(request: RawRequest, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>(request, options);
  }
}
