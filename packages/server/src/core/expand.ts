import { LIMITS } from '@svc/contract';
import { ApiError } from './errors';

/**
 * What a resource can expand: for each field holding an ID, how to load the objects it names (already
 * serialised, already scoped) and what those objects can expand in turn.
 */
export type ExpandSpec = {
  [field: string]: {
    load: (ids: string[]) => Promise<Map<string, Record<string, unknown>>>;
    nested?: () => ExpandSpec;
  };
};

/** Checks every path before any loading, so a bad path answers `400` with the path in `param`. */
function validate(paths: string[], spec: ExpandSpec): void {
  for (const path of paths) {
    const segments = path.split('.');
    let level: ExpandSpec | undefined = spec;
    const ok =
      segments.length <= LIMITS.expansion.maxDepth &&
      segments.every((segment) => {
        const entry: ExpandSpec[string] | undefined = level && Object.hasOwn(level, segment) ? level[segment] : undefined;
        level = entry?.nested?.();
        return entry !== undefined;
      });
    if (!ok) {
      throw ApiError.of('invalid_expand_path', {
        message: `Cannot expand \`${path}\`: the path is unknown or deeper than ${LIMITS.expansion.maxDepth} levels.`,
        param: path,
      });
    }
  }
}

async function expandLevel<T extends Record<string, unknown>>(objects: T[], paths: string[], spec: ExpandSpec): Promise<T[]> {
  const byField = new Map<string, string[]>();
  for (const path of paths) {
    const [field, ...rest] = path.split('.');
    const nestedPaths = byField.get(field!) ?? [];
    if (rest.length) nestedPaths.push(rest.join('.'));
    byField.set(field!, nestedPaths);
  }
  let result = objects.map((o) => ({ ...o }));
  for (const [field, nestedPaths] of byField) {
    const entry = spec[field]!;
    const ids = [...new Set(result.map((o) => o[field]).filter((v): v is string => typeof v === 'string'))];
    if (ids.length === 0) continue;
    let loaded = await entry.load(ids);
    if (nestedPaths.length && entry.nested) {
      const expanded = await expandLevel([...loaded.values()], nestedPaths, entry.nested());
      loaded = new Map(expanded.map((o) => [o.id as string, o]));
    }
    result = result.map((o) => (typeof o[field] === 'string' && loaded.has(o[field] as string) ? { ...o, [field]: loaded.get(o[field] as string) } : o));
  }
  return result;
}

/** Replaces ID fields with the objects they name, for every `expand[]` path (at most two levels). */
export async function expand<T extends Record<string, unknown>>(objects: T[], paths: string[] | undefined, spec: ExpandSpec): Promise<T[]> {
  if (!paths || paths.length === 0) return objects;
  validate(paths, spec);
  return expandLevel(objects, paths, spec);
}
