export type MockObject = Record<string, unknown> & { id: string; object?: string };

/** Objects by their `object` type (`live_stream`, `api_key`, …), oldest first, as the mock's answers see them. */
export class MockStore {
  private readonly byType = new Map<string, MockObject[]>();
  /** Secrets the mock issued (API keys, webhook endpoint secrets), by object id: never in an answer after creation. */
  readonly secrets = new Map<string, string>();

  all(type: string): MockObject[] {
    return this.byType.get(type) ?? [];
  }

  /** An object of any type by its id. */
  get(id: string): MockObject | undefined {
    for (const objects of this.byType.values()) {
      const found = objects.find((o) => o.id === id);
      if (found) return found;
    }
    return undefined;
  }

  find(type: string, field: string, value: unknown): MockObject | undefined {
    return this.all(type).find((o) => o[field] === value);
  }

  insert(object: MockObject): MockObject {
    const type = String(object.object ?? 'object');
    this.byType.set(type, [...this.all(type), object]);
    return object;
  }

  remove(id: string): MockObject | undefined {
    const existing = this.get(id);
    if (existing) this.byType.set(String(existing.object), this.all(String(existing.object)).filter((o) => o.id !== id));
    return existing;
  }

  /** Empties the store (call between tests). */
  reset(): void {
    this.byType.clear();
    this.secrets.clear();
  }
}
