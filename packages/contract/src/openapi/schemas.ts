import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * zod schemas as JSON Schema 2020-12, the dialect of OpenAPI 3.1: null is a type (`type: [string, "null"]`, or
 * `anyOf` with `{type: "null"}` beside a shared schema). Named schemas (`.meta({id})`) become shared components
 * instead of copies inside every operation; the components gather in `components`.
 */
export function schemaConverter() {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType): JsonSchema => {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', override: emptyTuple }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    Object.assign(components, defs);
    return json;
  };
  return { components, convert };
}

/**
 * An empty tuple (`payment: []` when nothing is to pay) as an array of at most no items: the 2020-12 meta-schema
 * wants one entry in `prefixItems` at least, and linters want an `items` schema beside `type: array`.
 */
function emptyTuple({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (Array.isArray(jsonSchema.prefixItems) && jsonSchema.prefixItems.length === 0) {
    delete jsonSchema.prefixItems;
    jsonSchema.items = {};
    jsonSchema.maxItems = 0;
  }
}

/** Points zod's local references (`#/$defs/X`) at the document's components. */
export const withComponentRefs = <T>(document: T): T =>
  JSON.parse(JSON.stringify(document).replace(/"#\/(?:definitions|\$defs)\//g, '"#/components/schemas/')) as T;
