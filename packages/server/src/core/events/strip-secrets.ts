import { REDACTED, SECRET_FIELD_NAMES, SECRET_FIELDS, SECRET_VALUE_PATTERNS } from './secret-fields';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function removePath(target: Json, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const list = head.endsWith('[]');
  const key = list ? head.slice(0, -2) : head;
  if (!isObject(target) || !(key in target)) return;
  if (rest.length === 0 && !list) {
    delete target[key];
    return;
  }
  const next = target[key]!;
  for (const item of list && Array.isArray(next) ? next : [next]) removePath(item, rest);
}

function strip(value: Json, objectType: string | undefined): Json {
  if (typeof value === 'string') return SECRET_VALUE_PATTERNS.some((p) => p.test(value)) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => strip(item, undefined));
  if (!isObject(value)) return value;
  const type = typeof value.object === 'string' ? value.object : objectType;
  for (const path of SECRET_FIELDS[type ?? ''] ?? []) removePath(value, path.split('.'));
  for (const key of Object.keys(value)) {
    if (SECRET_FIELD_NAMES.has(key)) delete value[key];
    else value[key] = strip(value[key]!, undefined);
  }
  return value;
}

/**
 * The one serializer every event payload passes through: a JSON copy of `value` without secrets. Fields are
 * removed by the object's type (`SECRET_FIELDS`), by name anywhere, and values that look like credentials
 * are replaced by `[redacted]`. `asType` names the type for partial objects such as `previous_attributes`.
 */
export function stripSecrets<T extends object>(value: T, asType?: string): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  return strip(copy, asType) as Record<string, unknown>;
}
