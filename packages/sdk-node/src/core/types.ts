import type { PagePromise } from './pagination';
import type { RequestOptions } from './request';

/** The structural part of a ts-rest route the SDK reads (from the contract, at runtime and in types). */
export interface ContractRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams?: unknown;
  query?: unknown;
  body?: unknown;
  responses: Record<number, unknown>;
  metadata?: unknown;
  summary?: string;
  description?: string;
}

/**
 * What a method of the SDK needs to know about its route, in plain types. Computed from the contract in the
 * workspace (`contract-types.ts`) and printed as plain declarations in the published package, so a tenant's
 * compiler never evaluates the contract's schemas.
 */
export interface RouteTypes {
  /** Path parameters, in the order of the path: the method's positional arguments. */
  ids: readonly string[];
  /** Path parameters plus the query (reads) or the body (writes), without `expand`. */
  args: object;
  /** The object answered, or a list's item. */
  result: unknown;
  list: boolean;
  expand: boolean;
}

export type Prettify<T> = { [K in keyof T]: T[K] } & {};
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** `expand: ['a.b']` turns the ID union of `a` (and then `b` inside it) into the object it names. */
type ExpandOne<T, P extends string> = T extends null | undefined
  ? T
  : T extends readonly (infer I)[]
    ? ExpandOne<I, P>[]
    : P extends `${infer Head}.${infer Rest}`
      ? { [K in keyof T]: K extends Head ? ExpandOne<Exclude<T[K], string>, Rest> : T[K] }
      : { [K in keyof T]: K extends P ? Exclude<T[K], string> : T[K] };

export type Expanded<T, E> = E extends readonly [infer First extends string, ...infer Rest] ? Expanded<ExpandOne<T, First>, Rest> : T;

type Answer<D extends RouteTypes, E> = D['list'] extends true ? PagePromise<Expanded<D['result'], E>> : Promise<Expanded<D['result'], E>>;
type ExpandOption<D extends RouteTypes, E> = D['expand'] extends true ? { expand?: E } : {};
type Payload<D extends RouteTypes> = DistributiveOmit<D['args'], D['ids'][number]>;
type Ids<T extends readonly string[]> = { [I in keyof T]: string };

type ObjectForm<D extends RouteTypes> = {} extends D['args']
  ? <const E extends readonly string[] = []>(args?: D['args'] & ExpandOption<D, E>, options?: RequestOptions) => Answer<D, E>
  : <const E extends readonly string[] = []>(args: D['args'] & ExpandOption<D, E>, options?: RequestOptions) => Answer<D, E>;

type PositionalForm<D extends RouteTypes> = D['ids'] extends readonly []
  ? unknown
  : {} extends Payload<D>
    ? <const E extends readonly string[] = []>(
        ...args: [...Ids<D['ids']>, args?: Payload<D> & ExpandOption<D, E>, options?: RequestOptions]
      ) => Answer<D, E>
    : <const E extends readonly string[] = []>(
        ...args: [...Ids<D['ids']>, args: Payload<D> & ExpandOption<D, E>, options?: RequestOptions]
      ) => Answer<D, E>;

/**
 * One route as an SDK method: path ids positionally (`update('ls_…', {metadata})`) or everything in one object
 * (`update({id: 'ls_…', metadata})`); lists answer a `PagePromise`, objects come back unwrapped.
 */
export type RouteMethod<D extends RouteTypes> = PositionalForm<D> & ObjectForm<D>;

/** A tree of routes as a tree of SDK methods, named as the contract names them. */
export type Resources<T> = {
  [K in keyof T]: T[K] extends RouteTypes ? RouteMethod<T[K]> : Resources<T[K]>;
};
