import { sql } from 'kysely';
import { LIMITS } from '@svc/contract';
import type { Database } from '../db/database';
import { aloneOnDeadlock, Batcher } from './batcher';
import type { Scope } from './scope';

/** How long a first request may run before a retry with its key may take over (a crashed process never releases it). */
const LOCK_SECONDS = 300;

export interface KeyClaim {
  scope: Scope;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

export interface StoredAnswer {
  scope: Scope;
  key: string;
  status: number;
  /** The sealed body, as the JSON text stored in `response_body`. */
  body: string;
}

const identity = (c: { scope: Scope; key: string }) => `${c.scope.tenantId}:${c.scope.livemode}:${c.key}`;

/**
 * Inserts each key's row, or takes over one that expired or whose first request died; true for the claims
 * this call now owns. One statement for the whole batch: the primary key still makes two concurrent first
 * requests impossible on any number of processes, and a key twice in one batch is claimed once (the other
 * sees it in use).
 */
async function claimAll(db: Database, claims: KeyClaim[]): Promise<boolean[]> {
  const first = new Map<string, number>();
  claims.forEach((c, i) => first.has(identity(c)) || first.set(identity(c), i));
  const unique = [...first.values()].map((i) => claims[i]!);
  const retention = `${LIMITS.idempotency.retentionHours} hours`;
  const { rows } = await sql<{ tenant_id: string; livemode: boolean; key: string }>`
    insert into idempotency_keys (tenant_id, livemode, key, method, path, request_hash, locked_until)
    select v.tenant_id, v.livemode, v.key, v.method, v.path, v.request_hash, now() + make_interval(secs => ${LOCK_SECONDS})
    from unnest(
      ${unique.map((c) => c.scope.tenantId)}::text[], ${unique.map((c) => c.scope.livemode)}::boolean[], ${unique.map((c) => c.key)}::text[],
      ${unique.map((c) => c.method)}::text[], ${unique.map((c) => c.path)}::text[], ${unique.map((c) => c.requestHash)}::text[]
    ) as v(tenant_id, livemode, key, method, path, request_hash)
    on conflict (tenant_id, livemode, key) do update set
      method = excluded.method, path = excluded.path, request_hash = excluded.request_hash,
      response_status = null, response_body = null, locked_until = excluded.locked_until, created_at = now()
    where idempotency_keys.created_at < now() - ${retention}::interval
       or (idempotency_keys.response_status is null and idempotency_keys.locked_until < now()
           and idempotency_keys.request_hash = excluded.request_hash)
    returning tenant_id, livemode, key`.execute(db);
  const owned = new Set(rows.map((r) => identity({ scope: { tenantId: r.tenant_id, livemode: r.livemode }, key: r.key })));
  return claims.map((c, i) => first.get(identity(c)) === i && owned.has(identity(c)));
}

/** Stores each first answer on its key's row (the request owns the row, so nothing else writes it meanwhile). */
async function storeAll(db: Database, answers: StoredAnswer[]): Promise<void[]> {
  await sql`
    update idempotency_keys k set response_status = v.status, response_body = v.body::jsonb
    from unnest(
      ${answers.map((a) => a.scope.tenantId)}::text[], ${answers.map((a) => a.scope.livemode)}::boolean[], ${answers.map((a) => a.key)}::text[],
      ${answers.map((a) => a.status)}::integer[], ${answers.map((a) => a.body)}::text[]
    ) as v(tenant_id, livemode, key, status, body)
    where k.tenant_id = v.tenant_id and k.livemode = v.livemode and k.key = v.key`.execute(db);
  return answers.map(() => undefined);
}

interface Batches {
  claim: Batcher<KeyClaim, boolean>;
  store: Batcher<StoredAnswer, void>;
}

// One pair per connection pool: each process (or test app with its own pool) groups its own requests.
const batches = new WeakMap<Database, Batches>();

function batchesOf(db: Database): Batches {
  let b = batches.get(db);
  if (!b) {
    b = {
      claim: new Batcher(aloneOnDeadlock((claims) => claimAll(db, claims))),
      store: new Batcher(aloneOnDeadlock((answers) => storeAll(db, answers))),
    };
    batches.set(db, b);
  }
  return b;
}

/** True when this request now owns the key; grouped with the other requests claiming keys meanwhile. */
export const claimKey = (db: Database, claim: KeyClaim): Promise<boolean> => batchesOf(db).claim.add(claim);

/** Stores the first answer; grouped like claims, and done before the answer is sent. */
export const storeAnswer = (db: Database, answer: StoredAnswer): Promise<void> => batchesOf(db).store.add(answer);
