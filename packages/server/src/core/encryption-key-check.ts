import type { Database } from '../db/database';
import type { SecretBox } from './secret-box';

const CONTEXT = 'encryption_key_check';
const PLAINTEXT = 'svc';

/** The server was started with an encryption key that does not open the database's secrets. */
export class EncryptionKeyMismatch extends Error {
  constructor() {
    super(
      "SVC_ENCRYPTION_KEY is not the key this database's secrets were sealed with, so no stream key, webhook secret or " +
        'provider credential could be opened: start the server with the key the database was first started with.',
    );
    this.name = 'EncryptionKeyMismatch';
  }
}

/**
 * Checks the key at start-up against the value sealed at the database's first start (which this writes). With
 * another key every request that opens a secret would fail, one at a time, as a `500`; refusing to start says why
 * once. A database older than the check records the key it is next started with.
 */
export async function checkEncryptionKey(db: Database, secrets: SecretBox): Promise<void> {
  await db
    .insertInto('encryption_key_check')
    .values({ sealed: secrets.encrypt(PLAINTEXT, CONTEXT) })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const { sealed } = await db.selectFrom('encryption_key_check').select('sealed').executeTakeFirstOrThrow();
  let opened: string | undefined;
  try {
    opened = secrets.decrypt(sealed, CONTEXT);
  } catch {
    // A ciphertext sealed with another key fails authentication.
  }
  if (opened !== PLAINTEXT) throw new EncryptionKeyMismatch();
}
