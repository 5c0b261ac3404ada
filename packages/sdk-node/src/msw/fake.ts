import { z } from 'zod';

type Def = { type: string; [k: string]: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/**
 * The smallest value a schema accepts: required fields filled (first enum member, literal, `null` where
 * nullable, empty lists and maps), optional fields left out. Objects the mock store makes start from it,
 * so they always match the contract's response schema.
 */
export function fakeFromSchema(schema: z.ZodType, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(shape)) {
        const field = shape[key] as z.ZodType;
        if (defOf(field).type === 'optional') continue;
        out[key] = fakeFromSchema(field, depth + 1);
      }
      return out;
    }
    case 'nullable':
      return null;
    case 'optional':
      return undefined;
    case 'default':
      return typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
    case 'string':
      return (schema as z.ZodString).format === 'datetime' ? new Date().toISOString() : '';
    case 'number':
    case 'int':
      return 0;
    case 'boolean':
      return false;
    case 'enum':
      return (schema as z.ZodEnum).options[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array':
      return [];
    case 'record':
      return {};
    case 'union':
      return fakeFromSchema((def.options as z.ZodType[])[0]!, depth + 1);
    case 'pipe':
      return fakeFromSchema(def.out as z.ZodType, depth + 1);
    case 'lazy':
      return depth > 6 ? null : fakeFromSchema((def.getter as () => z.ZodType)(), depth + 1);
    case 'template_literal':
      return '';
    default:
      return null;
  }
}

/** The item schema inside `{data: X}` or `{data: X[], meta}`. */
export function itemSchemaOf(response: unknown): { item: z.ZodType; list: boolean } | undefined {
  if (!(response instanceof z.ZodObject)) return undefined;
  const data = response.shape.data as z.ZodType | undefined;
  if (!data) return undefined;
  return data instanceof z.ZodArray ? { item: data.element as z.ZodType, list: true } : { item: data, list: false };
}
