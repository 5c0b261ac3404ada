import { ID_PREFIXES, type ObjectType } from '@svc/contract';

export type MockObject = Record<string, unknown> & { id: string };

let counter = 0;

/** A time-ordered id with the object's prefix, like the server's. */
export function mockId(object: string | undefined): string {
  const prefix = (object && ID_PREFIXES[object as ObjectType]) || 'obj';
  counter += 1;
  return `${prefix}_mock${Date.now().toString(36).padStart(10, '0')}${counter.toString(36).padStart(6, '0')}`;
}

/** Objects by collection path (`/v1/keys`), newest last. */
export class MockStore {
  private readonly collections = new Map<string, MockObject[]>();

  all(collection: string): MockObject[] {
    return this.collections.get(collection) ?? [];
  }

  get(collection: string, id: string): MockObject | undefined {
    return this.all(collection).find((o) => o.id === id);
  }

  find(collection: string, field: string, value: unknown): MockObject | undefined {
    return this.all(collection).find((o) => o[field] === value);
  }

  insert(collection: string, object: MockObject): MockObject {
    this.collections.set(collection, [...this.all(collection), object]);
    return object;
  }

  update(collection: string, id: string, changes: Record<string, unknown>): MockObject | undefined {
    const existing = this.get(collection, id);
    if (!existing) return undefined;
    Object.assign(existing, changes);
    return existing;
  }

  remove(collection: string, id: string): MockObject | undefined {
    const existing = this.get(collection, id);
    if (existing) this.collections.set(collection, this.all(collection).filter((o) => o.id !== id));
    return existing;
  }

  /** Empties every collection (call between tests). */
  reset(): void {
    this.collections.clear();
  }
}
