import { ID_PREFIXES, type ObjectType } from '@svc/contract';
import { z } from 'zod';

type Def = { type: string; [k: string]: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const randomBase62 = (length: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => BASE62[b % 62]).join('');

let counter = 0;
/** A time-ordered id with the object's prefix, like the server's. */
export function mockId(object: string | undefined): string {
  const prefix = (object && ID_PREFIXES[object as ObjectType]) || 'obj';
  counter += 1;
  return `${prefix}_mock${Date.now().toString(36).padStart(10, '0')}${counter.toString(36).padStart(6, '0')}`;
}

/** A string a field of this name and format accepts, shaped like the server's values where the name says which. */
function fakeString(schema: z.ZodString, key: string, object: string | undefined): string {
  const format = (schema as { format?: string | null }).format;
  if (key === 'id') return format === 'uuid' ? crypto.randomUUID() : mockId(object);
  if (format === 'datetime' || key.endsWith('_at')) return new Date().toISOString();
  if (format === 'url' || key.endsWith('url')) return `https://svc.mock/${key}`;
  if (format === 'email') return 'someone@svc.mock';
  if (format === 'uuid') return crypto.randomUUID();
  if (format === 'ipv4') return '192.0.2.1';
  if (key === 'country' || key === 'ctry') return 'KE';
  const min = (schema as { minLength?: number | null }).minLength ?? 0;
  const max = (schema as { maxLength?: number | null }).maxLength ?? Infinity;
  return `mock_${key || 'value'}`.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 32)));
}

/**
 * The smallest value a schema accepts: required fields filled (first enum member, literal, `null` where
 * nullable, empty lists and maps, strings shaped by their name and format), optional fields left out.
 * Objects the mock makes start from it, so they match the contract's schemas.
 */
export function fakeFromSchema(schema: z.ZodType, key = '', object?: string, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape;
      const literal = shape.object && defOf(shape.object as z.ZodType).type === 'literal' ? ((defOf(shape.object as z.ZodType).values as unknown[])[0] as string) : undefined;
      const out: Record<string, unknown> = {};
      for (const field of Object.keys(shape)) {
        const fieldSchema = shape[field] as z.ZodType;
        if (defOf(fieldSchema).type === 'optional') continue;
        out[field] = fakeFromSchema(fieldSchema, field, literal, depth + 1);
      }
      return out;
    }
    case 'nullable':
      return key === 'created_at' ? new Date().toISOString() : null;
    case 'optional':
      return undefined;
    case 'default':
      return typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
    case 'string':
      return fakeString(schema as z.ZodString, key, object);
    case 'number':
    case 'int': {
      const min = (schema as { minValue?: number | null }).minValue;
      return typeof min === 'number' && Number.isFinite(min) ? Math.max(min, 0) : 0;
    }
    case 'boolean':
      return false;
    case 'enum':
      return (schema as z.ZodEnum).options[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array': {
      const min = ((def.checks as Array<{ _zod: { def: { check: string; minimum?: number } } }> | undefined) ?? []).find((c) => c._zod.def.check === 'min_length')?._zod.def.minimum ?? 0;
      return Array.from({ length: min }, () => fakeFromSchema(def.element as z.ZodType, key, object, depth + 1));
    }
    case 'record':
      return {};
    case 'union':
      return fakeFromSchema((def.options as z.ZodType[])[0]!, key, object, depth + 1);
    case 'intersection':
      return { ...(fakeFromSchema(def.left as z.ZodType, key, object, depth + 1) as object), ...(fakeFromSchema(def.right as z.ZodType, key, object, depth + 1) as object) };
    case 'pipe':
      return fakeFromSchema(def.in as z.ZodType, key, object, depth + 1);
    case 'lazy':
      return depth > 6 ? null : fakeFromSchema((def.getter as () => z.ZodType)(), key, object, depth + 1);
    case 'template_literal':
      return (def.parts as unknown[]).map((p) => (typeof p === 'string' || typeof p === 'number' ? String(p) : 'mock')).join('');
    default:
      return null;
  }
}

export interface ResponseShape {
  item: z.ZodType;
  list: boolean;
  /** The `object` literal of the item (`live_stream`, `api_key`, …), when it has one. */
  object: string | undefined;
}

/** The item schema inside `{data: X}` or `{data: X[], meta}`. */
export function responseShape(response: unknown): ResponseShape | undefined {
  if (!(response instanceof z.ZodObject)) return undefined;
  const data = response.shape.data as z.ZodType | undefined;
  if (!data) return undefined;
  const list = data instanceof z.ZodArray;
  const answered = (list ? (data as z.ZodArray).element : data) as z.ZodType;
  // A route answering one of several objects (`/v1/events`: a log entry, or a ticketed event for publishable
  // keys) is mocked as its first, the one the SDK's key callers get.
  const item = answered instanceof z.ZodUnion ? ((answered.options as z.ZodType[])[0] as z.ZodType) : answered;
  const objectField = item instanceof z.ZodObject ? (item.shape.object as z.ZodType | undefined) : undefined;
  const object = objectField && defOf(objectField).type === 'literal' ? String((defOf(objectField).values as unknown[])[0]) : undefined;
  return { item, list, object };
}
