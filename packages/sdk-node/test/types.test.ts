import { describe, expectTypeOf, it } from 'vitest';
import type { ApiKey } from '@svc/contract';
import { Svc } from '../src';

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
