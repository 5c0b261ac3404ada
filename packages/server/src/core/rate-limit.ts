import type { NextFunction, Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from './context';
import { ApiError } from './errors';
import type { Principal } from './principal';
import type { SharedRateStore } from './shared-rate-store';

/** A process's share of a bucket's current window: points reserved from the shared count and not yet used. */
interface Front {
  left: number;
  /** The shared count after the last reservation. */
  used: number;
  /** When the window ends (this process's clock). */
  until: number;
}

/** The share of a bucket's limit a process reserves at once: one database call serves this many requests. */
const RESERVE_FRACTION = 0.05;
const MAX_FRONTS = 20_000;

/**
 * Buckets of `limit` requests per one-second window. With a shared store (the server's), every process on the
 * database counts against the same window: each reserves a small share of the limit at a time (5 %, at least
 * one point) and hands it out in memory, and a bucket the store reports empty is refused in memory until its
 * window ends, so the database sees one call per reservation, not per request. No process can admit more than
 * it reserved, so all of them together admit at most the limit. Without a store (unit tests) buckets are
 * per process (rate-limiter-flexible's memory limiter).
 */
export class RateLimits {
  private readonly limiters = new Map<number, RateLimiterMemory>();
  private readonly fronts = new Map<string, Front>();
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(
    readonly publicPerIp: number,
    private readonly store?: SharedRateStore,
  ) {}

  private limiter(points: number): RateLimiterMemory {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration: 1 });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  /** Takes one request from the bucket; `allowed` is false when it was empty. */
  async take(bucket: string, limit: number) {
    if (this.store) return this.takeShared(this.store, bucket, limit);
    try {
      const r = await this.limiter(limit).consume(bucket, 1);
      return { allowed: true, limit, remaining: r.remainingPoints, resetMs: r.msBeforeNext };
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      return { allowed: false, limit, remaining: 0, resetMs: e.msBeforeNext };
    }
  }

  private async takeShared(store: SharedRateStore, bucket: string, limit: number) {
    // The limit is part of the key: a plan changed by PATCH starts a fresh share at once.
    const key = `${limit}:${bucket}`;
    for (;;) {
      const now = Date.now();
      const front = this.fronts.get(key);
      if (front && front.until > now && (front.left > 0 || front.used >= limit)) return this.fromFront(front, limit, now);
      // One reservation at a time per bucket: requests arriving meanwhile wait for it rather than each
      // reserving a share of their own (which would hoard the window and refuse requests it never admitted).
      let reserving = this.reserving.get(key);
      if (!reserving) {
        reserving = this.reserve(store, key, bucket, limit).finally(() => this.reserving.delete(key));
        this.reserving.set(key, reserving);
      }
      await reserving;
    }
  }

  private async reserve(store: SharedRateStore, key: string, bucket: string, limit: number): Promise<void> {
    const started = Date.now();
    const { granted, used, msLeft } = await store.take(bucket, Math.max(1, Math.floor(limit * RESERVE_FRACTION)), limit);
    if (this.fronts.size >= MAX_FRONTS) this.prune(started);
    this.fronts.set(key, { left: granted, used: granted > 0 ? used : limit, until: started + msLeft });
  }

  private fromFront(front: Front, limit: number, now: number) {
    const resetMs = Math.max(1, front.until - now);
    if (front.left <= 0) return { allowed: false, limit, remaining: 0, resetMs };
    front.left--;
    return { allowed: true, limit, remaining: front.left + Math.max(0, limit - front.used), resetMs };
  }

  private prune(now: number): void {
    for (const [key, front] of this.fronts) if (front.until <= now) this.fronts.delete(key);
    if (this.fronts.size >= MAX_FRONTS) this.fronts.clear();
  }
}

/** The bucket a request draws from and its size. */
export function bucketFor(principal: Principal, rateLimits: RateLimits): { bucket: string; limit: number } {
  switch (principal.kind) {
    case 'anonymous':
      return { bucket: `ip:${principal.ip}`, limit: rateLimits.publicPerIp };
    case 'operator':
      return { bucket: 'operator', limit: 1000 };
    case 'secret':
    case 'restricted':
      return { bucket: `key:${principal.key.id}`, limit: principal.tenant.rateLimits.secret };
    // A publishable key serves a whole audience: each viewer (token subject, else client IP) has its own bucket.
    case 'publishable':
      return { bucket: `key:${principal.key.id}:${principal.clientId}`, limit: principal.tenant.rateLimits.publishable };
    case 'customer':
      return { bucket: `key:${principal.key.id}:cus:${principal.customer}`, limit: principal.tenant.rateLimits.publishable };
    case 'user':
      return { bucket: `user:${principal.userId}`, limit: principal.tenant.rateLimits.secret };
    // Only named the tenant: counted per client IP within it, like a browser without a customer token.
    case 'tenant-header':
      return { bucket: `tenant:${principal.tenant.id}:${principal.ip}`, limit: principal.tenant.rateLimits.publishable };
  }
}

/** Draws from the bucket, sets the `RateLimit-*` headers, and answers `429` with `Retry-After` when empty. */
export async function applyRateLimit(ctx: AppContext, principal: Principal, res: Response): Promise<void> {
  const { bucket, limit } = bucketFor(principal, ctx.rateLimits);
  const r = await ctx.rateLimits.take(bucket, limit);
  const resetSeconds = Math.max(1, Math.ceil(r.resetMs / 1000));
  res.setHeader('RateLimit-Limit', String(r.limit));
  res.setHeader('RateLimit-Remaining', String(r.remaining));
  res.setHeader('RateLimit-Reset', String(resetSeconds));
  if (!r.allowed) {
    throw ApiError.of('rate_limited', {
      message: `Rate limit of ${limit} requests per second reached; retry after ${resetSeconds} s.`,
      headers: { 'Retry-After': String(resetSeconds) },
    });
  }
}

export function rateLimit(ctx: AppContext) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      await applyRateLimit(ctx, req.principal ?? { kind: 'anonymous', ip: req.ip ?? 'unknown' }, res);
      next();
    } catch (err) {
      next(err);
    }
  };
}
