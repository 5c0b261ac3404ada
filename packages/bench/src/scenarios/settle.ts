import pg from 'pg';

const autovacuumOn = new Map<string, Promise<boolean>>();

async function run(databaseUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Planner statistics as a deployment's PostgreSQL keeps them, before a scenario is measured. Autovacuum analyzes
 * a table within a minute of its growing; a PostgreSQL run without it (a CI machine's configuration) never has
 * statistics for the tables the bench fills, and its planner then takes one tenant's rows for a few, scanning
 * them all where an index lookup per row would do. On such a server the bench analyzes the database itself,
 * after a scenario's seed; with autovacuum on, it leaves that to PostgreSQL.
 */
export async function settle(databaseUrl: string): Promise<void> {
  let on = autovacuumOn.get(databaseUrl);
  if (!on) {
    on = run(databaseUrl, 'show autovacuum').then((r) => r.rows[0]?.autovacuum === 'on');
    autovacuumOn.set(databaseUrl, on);
  }
  if (!(await on)) await run(databaseUrl, 'analyze');
}
