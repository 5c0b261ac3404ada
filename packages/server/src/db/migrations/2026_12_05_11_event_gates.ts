import { sql, type Kysely } from 'kysely';

/** Events whose booking is restricted to a fanbase's members (`members`) or to some of its tiers (`tiers`); no gate: anyone. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ticketed_events')
    .addColumn('gate_type', 'text', (c) => c.check(sql`gate_type in ('members', 'tiers')`))
    .addColumn('gate_tier_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ticketed_events').dropColumn('gate_type').dropColumn('gate_tier_ids').execute();
}
