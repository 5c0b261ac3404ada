import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument('https://api.example.test');
  const text = JSON.stringify(doc);

  it('is OpenAPI 3 with v1 and the server URL', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('v1');
    expect(doc.servers).toEqual([{ url: 'https://api.example.test' }]);
  });

  it('references shared component schemas only', () => {
    expect(text).not.toContain('#/definitions/');
    expect(text).not.toContain('#/$defs/');
    for (const ref of text.match(/#\/components\/schemas\/[A-Za-z0-9_]+/g) ?? []) {
      expect(doc.components?.schemas, ref).toHaveProperty(ref.split('/').at(-1)!);
    }
  });

  it('documents request bodies, not empty objects', () => {
    const body = doc.paths['/v1/keys']?.post?.requestBody as { content: Record<string, { schema: unknown }> };
    expect(body.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/StoreApiKeyRequest' });
    const schema = doc.components!.schemas!.StoreApiKeyRequest as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['type', 'scopes', 'expires_at', 'ip_allowlist']));
  });

  it('describes the error responses of each operation with the Error schema', () => {
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { responses?: Record<string, unknown> }>));
    expect(ops.length).toBeGreaterThan(5);
    for (const op of ops) {
      const errors = Object.entries(op.responses ?? {}).filter(([status]) => Number(status) >= 400);
      expect(errors.length).toBeGreaterThan(0);
      for (const [, response] of errors) {
        expect(JSON.stringify(response)).toContain('#/components/schemas/Error');
      }
    }
  });

  it('lists the error catalogue in its description', () => {
    expect(doc.info.description).toContain('`idempotency_key_reused`');
  });
});
