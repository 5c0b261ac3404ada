import type { OpenApiDocument } from './document';
import type { JsonSchema } from './schemas';

/** JSON Schema 2020-12 keywords that OpenAPI 3.0's schema object lacks; they only narrow, so older tools lose nothing they could check. */
const DROPPED = ['$schema', '$id', '$anchor', '$comment', 'propertyNames', 'patternProperties', 'prefixItems', 'unevaluatedProperties', 'contentEncoding', 'contentMediaType', 'if', 'then', 'else', 'dependentSchemas', 'dependentRequired'];
const SUBSCHEMA = ['items', 'not', 'additionalProperties'];
const SUBSCHEMAS = ['allOf', 'anyOf', 'oneOf'];

const isNullType = (s: unknown) => typeof s === 'object' && s !== null && (s as JsonSchema).type === 'null' && Object.keys(s).length === 1;

/** A schema that matches null only, in 3.0 words: `nullable` needs a `type` beside it, and the `enum` must list null. */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] };

function withNull(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema, nullable: true };
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** One schema from JSON Schema 2020-12 (OpenAPI 3.1) to OpenAPI 3.0.3's schema object. */
export function schemaTo30(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  let s: JsonSchema = { ...(input as JsonSchema) };
  // A tuple: 3.0 has no `prefixItems`, so its items are any of the positions' schemas.
  if (Array.isArray(s.prefixItems)) {
    const positions = s.prefixItems as unknown[];
    s.items = positions.length === 0 ? {} : positions.length === 1 ? positions[0] : { anyOf: positions };
  } else if (typeof s.items === 'boolean') delete s.items;
  for (const key of DROPPED) delete s[key];
  if (s.contentMediaType !== undefined || (input as JsonSchema).contentMediaType !== undefined) s.format ??= 'binary';
  for (const key of SUBSCHEMA) if (typeof s[key] === 'object') s[key] = schemaTo30(s[key]);
  if (s.properties) s.properties = Object.fromEntries(Object.entries(s.properties as JsonSchema).map(([k, v]) => [k, schemaTo30(v)]));
  if ('const' in s) {
    s.enum = [s.const];
    delete s.const;
  }
  if (Array.isArray(s.examples)) {
    if (s.examples.length > 0) s.example = s.examples[0];
    delete s.examples;
  }
  for (const bound of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (typeof s[bound] === 'number') {
      s[bound === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = s[bound];
      s[bound] = true;
    }
  }
  if (Array.isArray(s.type)) {
    const types = s.type as string[];
    const nonNull = types.filter((t) => t !== 'null');
    const nullable = nonNull.length < types.length;
    if (nonNull.length === 0) s = { ...s, ...NULL_ONLY };
    else if (nonNull.length === 1) s = nullable ? withNull({ ...s, type: nonNull[0] }) : { ...s, type: nonNull[0] };
    else {
      const { type: _type, ...rest } = s;
      s = { ...rest, anyOf: nonNull.map((t) => (nullable ? { type: t, nullable: true } : { type: t })) };
    }
  } else if (s.type === 'null') {
    s = { ...s, ...NULL_ONLY };
  }
  for (const key of SUBSCHEMAS) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    const others = branches.filter((b) => !isNullType(b));
    if (others.length === branches.length || key === 'allOf') {
      s[key] = branches.map(schemaTo30);
      continue;
    }
    const only = others.length === 1 ? (others[0] as JsonSchema) : undefined;
    // `X | null` where X has a type of its own: fold null into it.
    if (only && typeof only.type === 'string' && only.$ref === undefined && !SUBSCHEMAS.some((k) => k in only)) {
      const { [key]: _branches, ...rest } = s;
      s = withNull({ ...(schemaTo30(only) as JsonSchema), ...rest });
    } else {
      // A shared schema or a union, or null: a branch that matches null alone.
      s[key] = [...others.map(schemaTo30), NULL_ONLY];
    }
  }
  // 3.0 ignores the siblings of `$ref`: keep them by wrapping the reference.
  if (typeof s.$ref === 'string' && Object.keys(s).length > 1) {
    const { $ref, ...siblings } = s;
    s = { ...siblings, allOf: [{ $ref }] };
  }
  return s;
}

/** Every `schema` of parameters, headers and media types, and every component schema. */
function convertSchemasIn(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertSchemasIn);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'schema' ? schemaTo30(v) : convertSchemasIn(v)]));
}

/** The OpenAPI 3.0.3 rendering of the 3.1.0 document, for tools that read only 3.0 (served at `/openapi.3.0.json`). */
export function toOpenApi30(document: OpenApiDocument): OpenApiDocument {
  const { webhooks: _webhooks, jsonSchemaDialect: _dialect, components, info, ...rest } = document;
  const { schemas, ...otherComponents } = components ?? {};
  const { license, ...otherInfo } = info as { license?: { name: string; identifier?: string } };
  return {
    ...(convertSchemasIn(rest) as OpenApiDocument),
    openapi: '3.0.3',
    info: { ...otherInfo, ...(license && { license: { name: license.name, url: `https://spdx.org/licenses/${license.identifier ?? license.name}.html` } }) } as OpenApiDocument['info'],
    components: {
      ...(convertSchemasIn(otherComponents) as Record<string, Record<string, unknown>>),
      schemas: Object.fromEntries(Object.entries(schemas ?? {}).map(([k, v]) => [k, schemaTo30(v)])),
    },
  };
}
