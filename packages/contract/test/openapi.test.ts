import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, toOpenApi30 } from '../src/openapi';
import { contract } from '../src/router';
import type { RouteAccess } from '../src/common/access';

type Op = {
  operationId: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name?: string; in?: string; required?: boolean; $ref?: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
  'x-svc-access'?: Record<string, unknown>;
};

const doc = buildOpenApiDocument('https://api.example.test');
const doc30 = toOpenApi30(doc);
const text = JSON.stringify(doc);
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op: op as unknown as Op })),
);
const byId = (id: string) => operations.find((o) => o.op.operationId === id)!;

/** Each contract route with its operation id (`group.sub.name`) and access. */
function routes(router: object, keys: string[] = []): { id: string; access: RouteAccess; method: string }[] {
  return Object.entries(router).flatMap(([key, value]) =>
    'method' in value && 'path' in value
      ? [{ id: [...keys, key].join('.'), method: String(value.method), access: (value.metadata?.access ?? { auth: 'public' }) as RouteAccess }]
      : routes(value as object, [...keys, key]),
  );
}

/** Every schema object in a document, found by walking it. */
function* schemas(node: unknown, inSchema = false): Generator<Record<string, unknown>> {
  if (Array.isArray(node)) for (const n of node) yield* schemas(n, inSchema);
  else if (node && typeof node === 'object') {
    if (inSchema) yield node as Record<string, unknown>;
    for (const [k, v] of Object.entries(node)) {
      const childIsSchema = k === 'schema' || (inSchema && ['items', 'not', 'additionalProperties'].includes(k));
      if (k === 'schemas' && !inSchema) for (const s of Object.values(v as object)) yield* schemas(s, true);
      else if (inSchema && ['properties', 'allOf', 'anyOf', 'oneOf'].includes(k)) for (const s of Object.values(v as object)) yield* schemas(s, true);
      else yield* schemas(v, childIsSchema);
    }
  }
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with v1, the server URL, a license, contact and external docs', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('v1');
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', description: 'This server' }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.externalDocs).toMatchObject({ url: expect.stringMatching(/^https:\/\//) });
  });

  it('says null as a type, never with `nullable`', () => {
    expect(text).not.toContain('"nullable"');
    const error = doc.components!.schemas!.Error as { properties: { error: { properties: Record<string, unknown> } } };
    expect(error.properties.error.properties.param).toEqual({ type: ['string', 'null'] });
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

  it('describes the error responses of each contract operation with the Error schema', () => {
    for (const { op } of operations) {
      const errors = Object.entries(op.responses ?? {}).filter(([status]) => Number(status) >= 400);
      expect(errors.length, op.operationId).toBeGreaterThan(0);
    }
    for (const { op } of operations.filter((o) => o.op['x-svc-access'])) {
      for (const [, response] of Object.entries(op.responses).filter(([status]) => Number(status) >= 400)) {
        expect(JSON.stringify(response)).toContain('#/components/schemas/Error');
      }
    }
  });

  it('lists the error catalogue in its description', () => {
    expect(doc.info.description).toContain('`idempotency_key_reused`');
  });

  it('tags every operation with one of the described top-level tags', () => {
    const tags = doc.tags as { name: string; description: string }[];
    for (const tag of tags) expect(tag.description.length, tag.name).toBeGreaterThan(10);
    for (const { op } of operations) {
      expect(op.tags, op.operationId).toHaveLength(1);
      expect(tags.map((t) => t.name), op.operationId).toContain(op.tags![0]);
    }
  });

  it('declares the credentials each route takes, as the server reads them', () => {
    for (const route of routes(contract)) {
      const { op } = byId(route.id);
      const a = route.access;
      if (a.auth === 'public') expect(op.security, route.id).toEqual([]);
      else if (a.auth === 'operator') expect(op.security, route.id).toEqual([{ operatorToken: [] }]);
      else {
        const schemes = op.security!.map((r) => Object.keys(r).sort().join('+'));
        const expected = new Set<string>();
        for (const c of a.credentials) {
          if (c === 'secret' || c === 'restricted') expected.add('secretKey');
          if (c === 'publishable') expected.add(a.customerToken === 'required' ? 'customerToken+publishableKey' : 'publishableKey');
          if (c === 'user') expected.add('accessToken');
          if (c === 'tenant-header') expected.add('tenantCode');
        }
        expect(new Set(schemes), route.id).toEqual(expected);
        expect(op['x-svc-access']).toMatchObject({ scope: a.scope });
      }
    }
    expect(byId('access.sessions.open').op.security).toContainEqual({ publishableKey: [], customerToken: [] });
    expect(Object.keys(doc.components!.securitySchemes!)).toEqual(['secretKey', 'publishableKey', 'customerToken', 'accessToken', 'tenantCode', 'operatorToken']);
  });

  it('takes Idempotency-Key on every POST, PATCH and DELETE of the contract, required where the server requires it', () => {
    const mutating = routes(contract).filter((r) => ['POST', 'PATCH', 'DELETE'].includes(r.method));
    expect(mutating.length).toBeGreaterThan(90);
    for (const route of mutating) {
      const refs = byId(route.id).op.parameters!.map((p) => p.$ref).filter(Boolean);
      const required = 'idempotency' in route.access && route.access.idempotency === 'required';
      expect(refs, route.id).toEqual([`#/components/parameters/${required ? 'IdempotencyKeyRequired' : 'IdempotencyKey'}`]);
    }
    expect(byId('access.entitlements.grant').op.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKeyRequired' });
  });

  it('declares Request-Id and the rate-limit headers on every response, and Idempotent-Replayed on writes', () => {
    for (const { method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(Object.keys(response.headers ?? {}), `${op.operationId} ${status}`).toEqual(
          expect.arrayContaining(['Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
        );
        if (status === '429') expect(response.headers).toHaveProperty('Retry-After');
        if (['post', 'patch', 'delete'].includes(method) && op['x-svc-access']) expect(response.headers).toHaveProperty('Idempotent-Replayed');
      }
    }
  });

  it('declares exactly the path parameters each template has', () => {
    for (const { path, op } of operations) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
      expect(declared, `${op.operationId} ${path}`).toEqual(inTemplate);
    }
    expect(doc.paths).toHaveProperty(['/v1/streams/playback/{playback_id}/segments/{segment}.ts']);
    expect(doc.paths).toHaveProperty(['/api/v1/providers/{provider}/webhooks/{mpc_id}']);
  });
});

describe('OpenAPI 3.0.3 rendering', () => {
  const found = [...schemas(doc30)];

  it('is 3.0.3 with the same operations', () => {
    expect(doc30.openapi).toBe('3.0.3');
    expect(Object.keys(doc30.paths)).toEqual(Object.keys(doc.paths));
  });

  it('puts `nullable` only beside a type, and lists null in a nullable enum', () => {
    const nullables = found.filter((s) => s.nullable === true);
    expect(nullables.length).toBeGreaterThan(20);
    for (const s of nullables) {
      expect(typeof s.type, JSON.stringify(s)).toBe('string');
      if (Array.isArray(s.enum)) expect(s.enum, JSON.stringify(s)).toContain(null);
    }
    expect(JSON.stringify(doc30)).not.toMatch(/"type":\[/);
    expect(JSON.stringify(doc30)).not.toMatch(/"type":"null"/);
  });

  it('keeps no JSON Schema 2020-12 keyword that 3.0 lacks', () => {
    for (const s of found) {
      for (const k of ['const', 'prefixItems', 'examples', '$schema', 'propertyNames']) expect(s, k).not.toHaveProperty(k);
      if (typeof s.$ref === 'string') expect(Object.keys(s)).toEqual(['$ref']);
    }
  });
});
