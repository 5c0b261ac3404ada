import type { NextFunction, Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from './context';
import { ApiError } from './errors';
import type { Principal } from './principal';

/**
 * Per-process buckets of `limit` requests per second, refilled each second (rate-limiter-flexible's
 * memory limiter, one per distinct limit). Each process counts on its own: N processes behind a balancer
 * admit up to N times the limit; see docs/decisions.md.
 */
export class RateLimits {
  private readonly limiters = new Map<number, RateLimiterMemory>();

  constructor(readonly publicPerIp: number) {}

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
    try {
      const r = await this.limiter(limit).consume(bucket, 1);
      return { allowed: true, limit, remaining: r.remainingPoints, resetMs: r.msBeforeNext };
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      return { allowed: false, limit, remaining: 0, resetMs: e.msBeforeNext };
    }
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
