import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * For a local run without configuration: a secret generated once and kept in the data directory
 * (mode 0600), so restarts keep working. Production sets the variable instead.
 */
export function localSecret(dataDir: string, name: string, make: () => string): string {
  const dir = resolve(dataDir);
  const file = join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

export const newOperatorToken = () => `op_${randomBytes(24).toString('base64url')}`;
export const newEncryptionKey = () => randomBytes(32).toString('base64');
