import { afterAll, beforeAll } from 'vitest';
import { bearer, createTestServer, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';

export type Tenant = Awaited<ReturnType<TestServer['tenant']>>;

/**
 * A test server whose environment is known only once the fakes it talks to listen: `env()` runs in
 * `beforeAll`, after the fakes' own `beforeAll`s. Reads through to the server like `useTestServer`.
 */
export function useServerWith(env: () => Record<string, string>): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await createTestServer(env());
  });
  afterAll(() => server?.close());
  return new Proxy({} as TestServer, {
    get: (_target, prop) => {
      if (!server) throw new Error('the test server is used before beforeAll ran');
      return Reflect.get(server, prop);
    },
  });
}

/** Starts a fake before the server and stops it after. */
export function useFake<F extends { start(): Promise<string>; stop(): Promise<void> }>(fake: F): F {
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  return fake;
}

export async function messagesTo(t: TestServer, secret: string, to: string) {
  const res = await t.http().get('/v1/messages').query({ to }).set(bearer(secret));
  expectStatus(res, 200);
  return res.body.data as Array<Record<string, any>>;
}

export async function messageOf(t: TestServer, secret: string, id: string) {
  const res = await t.http().get(`/v1/messages/${id}`).set(bearer(secret));
  expectStatus(res, 200);
  return res.body.data as Record<string, any>;
}

/** The events recorded about a message, oldest first. */
export async function eventsAbout(t: TestServer, subject: string) {
  const rows = await t.ctx.db.selectFrom('event_log').select(['type', 'envelope']).where('subject', '=', subject).orderBy('id').execute();
  return rows.map((r) => ({ type: r.type, object: (JSON.parse(r.envelope) as { data: { object: Record<string, any> } }).data.object }));
}

let counter = 0;
export const kenyanNumber = () => `+2547${String(10_000_000 + ((Date.now() + counter++) % 89_999_999)).slice(0, 8)}`;
