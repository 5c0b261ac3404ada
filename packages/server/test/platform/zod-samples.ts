import type { z } from 'zod';

/** Reads zod 4 schemas just enough to build inputs for the bad-input sweep: the fields, and one value that passes. */
type Def = { type: string; [k: string]: any };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

export const isZod = (v: unknown): v is z.ZodType => typeof v === 'object' && v !== null && '_zod' in v;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/nullable/default/preprocess wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const d = defOf(s);
    if (WRAPPERS.has(d.type)) s = d.innerType;
    else if (d.type === 'pipe') s = defOf(d.in).type === 'transform' ? d.out : d.in;
    else if (d.type === 'lazy') s = d.getter();
    else break;
  }
  return s;
}

export const kindOf = (schema: z.ZodType) => defOf(unwrap(schema)).type;

/** Fields of an object schema, or of every branch of a union or intersection of objects. */
export function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> {
  const s = unwrap(schema);
  const d = defOf(s);
  if (d.type === 'object') return { ...(s as z.ZodObject).shape };
  if (d.type === 'union') return Object.assign({}, ...d.options.map((o: z.ZodType) => fieldsOf(o)));
  if (d.type === 'intersection') return { ...fieldsOf(d.left), ...fieldsOf(d.right) };
  return {};
}

/** The element schema of an array field, if it is one. */
export const elementOf = (schema: z.ZodType): z.ZodType | undefined => {
  const d = defOf(unwrap(schema));
  return d.type === 'array' ? d.element : undefined;
};

const isOptional = (s: z.ZodType) => s.safeParse(undefined).success;

const SCALARS: unknown[] = [
  'x',
  'https://example.com/video.mp4',
  'viewer-1',
  new Date(Date.now() + 86_400_000).toISOString(),
  'a'.repeat(64),
  'KE',
  'example.com',
  60,
  1,
  0,
  true,
  false,
  null,
];

/** A value the schema accepts when one is easy to find (required fields only), else a plausible guess. */
export function sample(schema: z.ZodType, depth = 0): unknown {
  const s = unwrap(schema);
  const d = defOf(s);
  if (depth > 6) return undefined;
  switch (d.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries((s as z.ZodObject).shape as Record<string, z.ZodType>)) {
        if (!isOptional(f)) out[k] = sample(f, depth + 1);
      }
      return out;
    }
    case 'array':
      return [sample(d.element, depth + 1)];
    case 'record':
      return {};
    case 'enum':
      return Object.values(d.entries)[0];
    case 'literal':
      return d.values[0];
    case 'union': {
      for (const option of d.options as z.ZodType[]) {
        const v = sample(option, depth + 1);
        if (option.safeParse(v).success) return v;
      }
      return sample(d.options[0], depth + 1);
    }
    default:
      return SCALARS.find((c) => s.safeParse(c).success) ?? 'x';
  }
}
