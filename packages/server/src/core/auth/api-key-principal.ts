import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import type { KeyPrincipal, ResolvedKey } from '../principal';
import { hashSecret, parseApiKey } from './api-key-secret';
import { resolveApiKey } from './resolve-api-key';

/** The principal of an API key (from the credential cache or the database), refused when malformed, unknown, revoked, expired or off its allowlist. */
export async function principalForKey(ctx: AppContext, ip: string, secret: string): Promise<KeyPrincipal> {
  const parsed = parseApiKey(secret);
  if (!parsed) throw ApiError.of('api_key_invalid', { message: 'The API key is malformed.' });
  const hash = hashSecret(secret);
  let resolved = ctx.credentials.get(hash);
  if (!resolved) {
    // A revoke that commits while this read runs must not be undone by caching what the read saw.
    const generation = ctx.credentials.generation;
    resolved = await resolveApiKey(ctx.db, hash);
    if (!resolved) throw ApiError.of('api_key_invalid', { message: 'The API key is not known.' });
    ctx.credentials.set(hash, resolved, generation);
  }
  const { key, tenant } = resolved;
  if (key.revokedAt) throw ApiError.of('api_key_revoked');
  if (key.expiresAt && key.expiresAt.getTime() <= (ctx.clock ? ctx.clock().getTime() : Date.now())) throw ApiError.of('api_key_expired');
  if (key.ipAllowlist && !ipAllowed(key, ip)) {
    throw ApiError.of('ip_not_allowed', { message: `The key does not allow requests from ${ip}.` });
  }
  const scope = { tenantId: tenant.id, livemode: key.livemode };
  if (key.type === 'publishable') return { kind: 'publishable', key, tenant, scope, clientId: ip };
  return { kind: key.type, key, tenant, scope };
}

const blockLists = new WeakMap<ResolvedKey, BlockList>();

function ipAllowed(key: ResolvedKey, ip: string): boolean {
  let list = blockLists.get(key);
  if (!list) {
    list = new BlockList();
    for (const entry of key.ipAllowlist ?? []) {
      const [address, bits] = entry.split('/');
      const family = isIPv6(address!) ? 'ipv6' : 'ipv4';
      if (bits) list.addSubnet(address!, Number(bits), family);
      else list.addAddress(address!, family);
    }
    blockLists.set(key, list);
  }
  const plain = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
}

const USE_WRITE_INTERVAL_MS = 60_000;
const MAX_TRACKED_KEYS = 100_000;
const lastUseWritten = new Map<string, number>();

/** `last_used_at` is written at most once a minute per key and process, off the request's path. */
export function recordUse(ctx: AppContext, keyId: string): void {
  const now = Date.now();
  if ((lastUseWritten.get(keyId) ?? 0) > now - USE_WRITE_INTERVAL_MS) return;
  if (lastUseWritten.size >= MAX_TRACKED_KEYS) lastUseWritten.clear();
  lastUseWritten.set(keyId, now);
  ctx.db
    .updateTable('api_keys')
    .set({ last_used_at: new Date(now) })
    .where('id', '=', keyId)
    .execute()
    .catch((err) => ctx.log.warn({ err: err.message }, 'could not record key use'));
}
