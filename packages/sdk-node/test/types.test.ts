import { describe, expectTypeOf, it } from 'vitest';
import type { ApiKey, LIVE_STREAM_STATUSES } from '@svc/contract';
import { Svc, SvcOperator, type SvcEvent } from '../src';

describe('types from the contract', () => {
  const svc = new Svc({ apiKey: 'sk_test_x', fetch: async () => new Response('{}') });

  it('types arguments and results of each route', () => {
    expectTypeOf(svc.keys.create).parameter(0).toMatchTypeOf<{ type: 'secret' | 'restricted' | 'publishable' }>();
    expectTypeOf(svc.keys.revoke).returns.resolves.toMatchTypeOf<ApiKey>();
  });

  it('narrows an expanded field to the object it names', () => {
    const plain = () => svc.keys.retrieve({ id: 'key_1' });
    expectTypeOf(plain).returns.resolves.toHaveProperty('created_by').toEqualTypeOf<string | ApiKey | null>();
    const expanded = () => svc.keys.retrieve({ id: 'key_1', expand: ['created_by'] });
    type Created = Awaited<ReturnType<typeof expanded>>['created_by'];
    expectTypeOf<Created>().not.toEqualTypeOf<string | ApiKey | null>();
    expectTypeOf<Exclude<Created, null>>().toMatchTypeOf<{ id: string; object: 'api_key' }>();
    expectTypeOf<Extract<Created, string>>().toBeNever();
  });

  it('iterates lists item by item', () => {
    const list = () => svc.keys.list({ per_page: 10 });
    type Iterated = ReturnType<typeof list> extends AsyncIterable<infer I> ? I : never;
    expectTypeOf<Iterated>().toMatchTypeOf<ApiKey>();
  });
});

describe('positional ids, clients and events', () => {
  const svc = new Svc({ apiKey: 'sk_test_x', fetch: async () => new Response('{}') });

  it('takes path ids positionally or in the one object', () => {
    const positional = () => svc.streams.liveStreams.update('ls_1', { metadata: { a: 'b' } });
    const object = () => svc.streams.liveStreams.update({ id: 'ls_1', metadata: { a: 'b' } });
    expectTypeOf<ReturnType<typeof positional>>().toEqualTypeOf<ReturnType<typeof object>>();
    // @ts-expect-error the id is a string
    svc.streams.liveStreams.retrieve.bind(null, 42);
    const expanded = () => svc.keys.retrieve('key_1', { expand: ['created_by'] });
    expectTypeOf<Extract<Awaited<ReturnType<typeof expanded>>['created_by'], string>>().toBeNever();
  });

  it('types ticketing where the client puts it', () => {
    const refund = () => svc.orders.refunds.create('ord_1', { amount: 100 }, { idempotencyKey: 'r1' });
    expectTypeOf(refund).returns.resolves.toMatchTypeOf<{ object: 'refund'; amount: number }>();
    expectTypeOf(svc.events.publish).returns.resolves.toMatchTypeOf<{ object: 'ticketed_event'; live_stream: string | null }>();
    expectTypeOf(svc).not.toHaveProperty('organizerEvents');
    expectTypeOf(svc).not.toHaveProperty('ticketingPayments');
    expectTypeOf(svc).not.toHaveProperty('tickets');
  });

  it('keeps operator routes off the tenant client', () => {
    expectTypeOf(svc).not.toHaveProperty('operator');
    expectTypeOf<SvcOperator>().toHaveProperty('operator');
  });

  it('narrows a webhook event by its type', () => {
    const handle = (event: SvcEvent) => {
      if (event.type === 'streams.live_stream.active') return event.data.object.status;
      return null;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<(typeof LIVE_STREAM_STATUSES)[number] | null>();
  });
});
