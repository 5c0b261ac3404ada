import { contract } from '@svc/contract';
import type { OperatorResources, TenantResources } from './contract-types';
import { buildResources } from './core/resources';
import { arrange } from './layout';
import { type ClientOptions, type ConnectionOptions, type RawRequest, type RequestOptions, Transport } from './core/request';
import { accessTokenVerifier, type AccessTokenClaims } from './access-tokens';
import { signCustomerToken } from './customer-tokens';
import { constructEvent } from './webhooks';

// Every group of the contract with tenant routes (`keys`, `streams`, `access`, …) is a property of the client.
export interface Svc extends TenantResources {}

/**
 * The Svc API for a tenant's server, with a secret (`sk_…`) or restricted (`rk_…`) key, or for a signed-in
 * member with their access token (`{accessToken, tenant}`: the routes that take members, as their roles allow).
 * Every tenant route of the contract is a method, grouped as the API is: `svc.streams.liveStreams.update('ls_…', {metadata})`.
 */
export class Svc {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    Object.assign(this, buildResources(this.transport, arrange(contract), 'tenant'));
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

export interface SvcOperatorOptions extends ConnectionOptions {
  /** The operator token of the self-hosted server (`SVC_OPERATOR_TOKEN`). */
  operatorToken: string;
}

export interface SvcOperator extends OperatorResources {}

/** The operator's routes of a self-hosted server (tenants and their settings): `op.operator.createTenant({name})`. */
export class SvcOperator {
  private readonly transport: Transport;

  constructor(options: SvcOperatorOptions) {
    const { operatorToken, ...rest } = options;
    this.transport = new Transport({ ...rest, apiKey: operatorToken });
    Object.assign(this, buildResources(this.transport, arrange(contract), 'operator'));
  }

  /** A raw call, for routes newer than this SDK. Answers the parsed JSON body. */
  request<T = unknown>(request: RawRequest, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>(request, options);
  }
}
