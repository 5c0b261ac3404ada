// Everything the SDK's public types take from the contract passes through this file. The published package
// replaces it with plain declarations printed from it (scripts/generate-declarations.ts), so that a tenant's
// compiler loads neither the contract's schemas nor zod.
import type { EventPayload, EventType } from '@svc/contract';
import type { WebhookEvent } from '@svc/webhook-verify';
import type { z } from 'zod';
import type { ContractRoute, Prettify, Resources } from './core/types';
import type { Arranged } from './layout';

export type { ErrorType } from '@svc/contract';

type Input<S> = S extends z.ZodType ? z.input<S> : {};
type Output<S> = S extends z.ZodType ? z.output<S> : never;

type Name<P extends string> = P extends `${infer N}.${string}` ? N : P;
/** `/v1/x/:id/y/:target_id` → `['id', 'target_id']`. */
type PathNames<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? [Name<Param>, ...PathNames<`/${Rest}`>]
  : P extends `${string}:${infer Param}`
    ? [Name<Param>]
    : [];
type ParamsFromPath<P extends string> = { [K in PathNames<P>[number]]: string };

type PathInput<R extends ContractRoute> = R['pathParams'] extends z.ZodType ? z.input<R['pathParams']> : ParamsFromPath<R['path']>;
type PayloadInput<R extends ContractRoute> = R['method'] extends 'GET' | 'DELETE' ? Input<R['query']> : NonNullable<Input<R['body']>>;
type Distribute<P, Q> = Q extends unknown ? Prettify<P & Q> : never;

/** A method's argument: path parameters plus the query (reads) or the body (writes), in one object. */
export type RouteArgs<R extends ContractRoute> = Distribute<PathInput<R>, PayloadInput<R>>;

type SuccessBody<R extends ContractRoute> = Output<R['responses'][Extract<keyof R['responses'], 200 | 201 | 202>]>;
type IsList<B> = B extends { data: unknown[]; meta: unknown } ? true : false;
type Item<B> = B extends { data: (infer I)[]; meta: unknown } ? I : B extends { data: infer D } ? D : B;
type WithoutExpand<T> = T extends unknown ? Prettify<Omit<T, 'expand'>> : never;

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;
/** Path ids in order; a route whose path is typed only as `string` has its one id from `pathParams`. */
type IdsOf<R extends ContractRoute> = string extends R['path']
  ? [keyof PathInput<R>] extends [never]
    ? []
    : IsUnion<keyof PathInput<R>> extends true
      ? []
      : [keyof PathInput<R> & string]
  : PathNames<R['path']>;

/** The plain types of one route, as the SDK's methods use them. */
export type Describe<R extends ContractRoute> = {
  ids: IdsOf<R>;
  args: WithoutExpand<RouteArgs<R>>;
  result: Item<SuccessBody<R>>;
  list: IsList<SuccessBody<R>>;
  expand: 'expand' extends keyof RouteArgs<R> ? true : false;
};

/** What the published declarations print of a route beside `Describe`: the arguments after the ids, and which may be left out. */
export type Signature<R extends ContractRoute> = {
  payload: WithoutExpand<Omit<RouteArgs<R>, IdsOf<R>[number]>>;
  argsOptional: {} extends WithoutExpand<RouteArgs<R>> ? true : false;
  payloadOptional: {} extends WithoutExpand<Omit<RouteArgs<R>, IdsOf<R>[number]>> ? true : false;
};

/** Which client a route belongs to: a tenant's (secret or restricted key) or the operator's. */
type KindOf<R> = R extends { metadata: { access: { auth: 'operator' } } }
  ? 'operator'
  : R extends { metadata: { access: { auth: 'tenant'; credentials: readonly (infer C)[] } } }
    ? [Extract<C, 'secret' | 'restricted'>] extends [never]
      ? never
      : 'tenant'
    : never;

type HasRoutes<T, K> = T extends ContractRoute ? (KindOf<T> extends K ? ([KindOf<T>] extends [never] ? false : true) : false) : true extends { [P in keyof T]: HasRoutes<T[P], K> }[keyof T] ? true : false;

/** The contract's routes of one kind, each described in plain types; groups without any are left out. */
export type RoutesOf<T, K extends 'tenant' | 'operator'> = {
  [P in keyof T as HasRoutes<T[P], K> extends true ? P : never]: T[P] extends ContractRoute ? Describe<T[P]> & { signature: Signature<T[P]> } : RoutesOf<T[P], K>;
};

export type TenantRoutes = RoutesOf<Arranged, 'tenant'>;
export type OperatorRoutes = RoutesOf<Arranged, 'operator'>;
/** The tenant client's methods (the published declarations spell each one out, with its route's TSDoc). */
export type TenantResources = Resources<TenantRoutes>;
export type OperatorResources = Resources<OperatorRoutes>;

/**
 * A webhook event of a type this SDK knows, narrowed by `type`: `if (event.type === 'streams.live_stream.active')`
 * gives `event.data.object` the live stream's type. New types may arrive before the SDK knows them; ignore them.
 */
export type SvcEvent = {
  [T in EventType]: Omit<WebhookEvent, 'type' | 'data'> & {
    type: T;
    data: { object: EventPayload<T>; previous_attributes: Record<string, unknown> | null };
  };
}[EventType];
