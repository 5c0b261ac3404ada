import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkEncryptionKey, EncryptionKeyMismatch } from '../../src/core/encryption-key-check';
import { parseEncryptionKey, SecretBox } from '../../src/core/secret-box';
import { ENCRYPTION_KEY, OPERATOR_TOKEN, useTestServer } from '../harness';
import { runServerProcess } from '../process';

const t = useTestServer();
const box = (key: string) => new SecretBox(parseEncryptionKey(key));
const OTHER_KEY = randomBytes(32).toString('base64');

describe('the encryption key checked at start-up', () => {
  it("records the first key's sealed value, opens it with that key, and refuses another", async () => {
    await checkEncryptionKey(t.ctx.db, box(ENCRYPTION_KEY));
    const rows = await t.ctx.db.selectFrom('encryption_key_check').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed).toMatch(/^v1\./);
    await checkEncryptionKey(t.ctx.db, box(ENCRYPTION_KEY));
    await expect(checkEncryptionKey(t.ctx.db, box(OTHER_KEY))).rejects.toBeInstanceOf(EncryptionKeyMismatch);
    // Refusing changes nothing: the first key still opens it.
    expect(await t.ctx.db.selectFrom('encryption_key_check').select('sealed').execute()).toEqual([{ sealed: rows[0]!.sealed }]);
    await checkEncryptionKey(t.ctx.db, box(ENCRYPTION_KEY));
  });

  it('stops a server started with another key before it listens, saying why, with no stack trace; the right key starts it', async () => {
    await checkEncryptionKey(t.ctx.db, box(ENCRYPTION_KEY));
    const env = { DATABASE_URL: t.databaseUrl, SVC_OPERATOR_TOKEN: OPERATOR_TOKEN };
    const wrong = runServerProcess({ ...env, SVC_ENCRYPTION_KEY: OTHER_KEY });
    expect(await wrong.exited).toBe(1);
    expect(wrong.output()).toContain("SVC_ENCRYPTION_KEY is not the key this database's secrets were sealed with");
    expect(wrong.output()).not.toContain('"msg":"listening"');
    expect(wrong.output()).not.toMatch(/\n\s+at /);

    const right = runServerProcess({ ...env, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY });
    try {
      const url = await right.url;
      expect((await fetch(`${url}/v1/status`)).status).toBe(200);
    } finally {
      right.child.kill('SIGTERM');
      await right.exited;
    }
  }, 60_000);
});
