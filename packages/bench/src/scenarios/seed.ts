import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { pool } from '../api';
import type { Context } from './types';

export async function liveStream(ctx: Context, metadata: Record<string, string> = {}): Promise<{ id: string; playbackId: string }> {
  const { data } = await ctx.api.call('POST', '/v1/streams/live_streams', { metadata });
  return { id: data.id, playbackId: data.playback_ids[0].id };
}

export async function grant(ctx: Context, customer: string, streamId: string, limits?: Record<string, unknown>): Promise<string> {
  const body = { customer, resource: { type: 'ls', id: streamId }, source_ref: `bench-${randomUUID()}`, ...(limits ? { limits } : {}) };
  return (await ctx.api.call('POST', '/v1/access/entitlements', body, { 'idempotency-key': randomUUID() })).data.id;
}

/** `count` viewers (`<prefix>-<i>`), each with an entitlement to the stream. */
export async function viewers(ctx: Context, prefix: string, count: number, streamId: string, limits?: Record<string, unknown>): Promise<string[]> {
  const customers = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  await pool(customers, 25, async (customer) => void (await grant(ctx, customer, streamId, limits)));
  return customers;
}

/** One open session per viewer, as its server would open it. */
export async function openSessions(ctx: Context, streamId: string, customers: string[]): Promise<string[]> {
  const ids: string[] = new Array(customers.length);
  await pool(customers, 25, async (customer, i) => {
    const { data } = await ctx.api.call('POST', '/v1/access/sessions', { resource: streamId, customer, device_id: `device-${i}` });
    ids[i] = data.id;
  });
  return ids;
}

/** A customer token key and one 15-minute token per viewer, as the tenant's server would sign them. */
export async function customerTokens(ctx: Context, customers: string[]): Promise<string[]> {
  const { data: key } = await ctx.api.call('POST', '/v1/access/customer_token_keys', { name: 'bench' });
  const secret = new TextEncoder().encode(key.secret);
  const iat = Math.floor(Date.now() / 1000);
  return Promise.all(
    customers.map((sub) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: key.id }).setSubject(sub).setAudience('svc').setIssuedAt(iat).setExpirationTime(iat + 900).sign(secret),
    ),
  );
}
