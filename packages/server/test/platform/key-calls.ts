import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { bearer, type TestServer } from '../harness';

/* Calls to the key routes shared by the key lifecycle tests, against the file's test server. */

export type Key = Record<string, unknown> & { id: string; secret?: string };

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function keyCalls(t: TestServer) {
  const get = (key: string, path: string) => t.http().get(path).set(bearer(key));
  const create = (key: string, body: object) => t.http().post('/v1/keys').set(bearer(key)).send(body);
  const revoke = (key: string, id: string) => t.http().delete(`/v1/keys/${id}`).set(bearer(key));
  const roll = (key: string, id: string, body?: object) => {
    const req = t.http().post(`/v1/keys/${id}/roll`).set(bearer(key));
    return body ? req.send(body) : req;
  };

  async function createKey(key: string, body: object): Promise<Key & { secret: string }> {
    const res = await create(key, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  }

  /** The ID of the key with this secret, looked up by its hash as the server stores it. */
  async function keyIdOf(secret: string): Promise<string> {
    const row = await t.ctx.db.selectFrom('api_keys').select('id').where('secret_hash', '=', sha256(secret)).executeTakeFirstOrThrow();
    return row.id;
  }

  return { get, create, revoke, roll, createKey, keyIdOf };
}
