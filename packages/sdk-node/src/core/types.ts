import type { z } from 'zod';

/** The structural part of a ts-rest route the SDK reads (from the contract, at runtime and in types). */
export interface ContractRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams?: unknown;
  query?: unknown;
  body?: unknown;
  responses: Record<number, unknown>;
  metadata?: unknown;
}

type Prettify<T> = { [K in keyof T]: T[K] } & {};
type Input<S> = S extends z.ZodType ? z.input<S> : {};
type Output<S> = S extends z.ZodType ? z.output<S> : never;

type ParamsFromPath<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? { [K in Param]: string } & ParamsFromPath<`/${Rest}`>
  : P extends `${string}:${infer Param}`
    ? { [K in Param]: string }
    : {};

type PathInput<R extends ContractRoute> = R['pathParams'] extends z.ZodType ? z.input<R['pathParams']> : ParamsFromPath<R['path']>;
type PayloadInput<R extends ContractRoute> = R['method'] extends 'GET' | 'DELETE' ? Input<R['query']> : NonNullable<Input<R['body']>>;

/** A method's argument: path parameters plus the query (reads) or the body (writes), in one object. */
export type RouteArgs<R extends ContractRoute> = Prettify<PathInput<R> & PayloadInput<R>>;

type SuccessBody<R extends ContractRoute> = Output<R['responses'][Extract<keyof R['responses'], 200 | 201 | 202>]>;

/** `expand: ['a.b']` turns the ID union of `a` (and then `b` inside it) into the object it names. */
type ExpandOne<T, P extends string> = T extends null | undefined
  ? T
  : T extends readonly (infer I)[]
    ? ExpandOne<I, P>[]
    : P extends `${infer Head}.${infer Rest}`
      ? { [K in keyof T]: K extends Head ? ExpandOne<Exclude<T[K], string>, Rest> : T[K] }
      : { [K in keyof T]: K extends P ? Exclude<T[K], string> : T[K] };

export type Expanded<T, E> = E extends readonly [infer First extends string, ...infer Rest] ? Expanded<ExpandOne<T, First>, Rest> : T;

export type ListItem<B> = B extends { data: (infer I)[]; meta: unknown } ? I : never;
export type IsList<B> = B extends { data: unknown[]; meta: unknown } ? true : false;
export type Unwrapped<B> = B extends { data: infer D } ? D : B;

export type RouteResult<R extends ContractRoute> = SuccessBody<R>;

type HasRequired<T> = {} extends T ? false : true;

import type { PagePromise } from './pagination';
import type { RequestOptions } from './request';

type ExpandArg<A> = 'expand' extends keyof A ? true : false;

/** One contract route as an SDK method. */
export type RouteMethod<R extends ContractRoute> =
  IsList<RouteResult<R>> extends true
    ? ExpandArg<RouteArgs<R>> extends true
      ? <const E extends readonly string[] = []>(
          args?: Omit<RouteArgs<R>, 'expand'> & { expand?: E },
          options?: RequestOptions,
        ) => PagePromise<Expanded<ListItem<RouteResult<R>>, E>>
      : (args?: RouteArgs<R>, options?: RequestOptions) => PagePromise<ListItem<RouteResult<R>>>
    : ExpandArg<RouteArgs<R>> extends true
      ? <const E extends readonly string[] = []>(
          args: Omit<RouteArgs<R>, 'expand'> & { expand?: E },
          options?: RequestOptions,
        ) => Promise<Expanded<Unwrapped<RouteResult<R>>, E>>
      : HasRequired<RouteArgs<R>> extends true
        ? (args: RouteArgs<R>, options?: RequestOptions) => Promise<Unwrapped<RouteResult<R>>>
        : (args?: RouteArgs<R>, options?: RequestOptions) => Promise<Unwrapped<RouteResult<R>>>;

/** A router of the contract as a tree of SDK methods, named as the contract names them. */
export type Resources<T> = {
  [K in keyof T]: T[K] extends ContractRoute ? RouteMethod<T[K]> : Resources<T[K]>;
};
