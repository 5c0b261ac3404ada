import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as platformCore from './migrations/2026_11_21_001_platform_core';

/** Ordered by name; a migration never changes after it lands. */
const migrations: Record<string, Migration> = {
  '2026_11_21_001_platform_core': platformCore,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
