import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMap | null>();

/** The server's bundle (dist/*.js) mapped back to its source file and line through the build's source map. */
function original(url: string, line: number, column: number): string | null {
  if (!url.startsWith('file://') || !url.includes('/dist/')) return null;
  if (!maps.has(url)) {
    const file = `${fileURLToPath(url)}.map`;
    maps.set(url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null);
  }
  const entry = maps.get(url)?.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
  return entry?.originalSource ? `${entry.originalSource.replace(/^.*\/(src|node_modules)\//, '$1/')}:${(entry.originalLine ?? 0) + 1}` : null;
}

/** Where a frame's code lives: a package under node_modules, a file of ours, or Node itself. */
function placeOf(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*?\/packages\//, '');
}

/** Self time by function and by place, from every `.cpuprofile` in `dir`: the top of each, as text. */
export function summariseProfiles(dir: string, top = 25): string {
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parents = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
    const label = (n: ProfileNode) => {
      const { functionName, url, lineNumber, columnNumber } = n.callFrame;
      return `${functionName || '(anonymous)'} ${original(url, lineNumber, columnNumber) ?? `${placeOf(url)}:${lineNumber + 1}`}`;
    };
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id)!;
      const us = profile.timeDeltas[i] ?? 0;
      const { functionName, url } = node.callFrame;
      if (functionName === '(idle)') return;
      total += us;
      const place = placeOf(url);
      const fn = label(node);
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
      byPlace.set(place, (byPlace.get(place) ?? 0) + us);
      // Time inside a function, its callees included: each function once per sample, however deep it recurses.
      const onStack = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) onStack.add(label(nodes.get(at)!));
      for (const f of onStack) inclusive.set(f, (inclusive.get(f) ?? 0) + us);
    });
  }
  const list = (m: Map<string, number>, n = top) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return (
    `CPU profile (${dir}), busy ${(total / 1e6).toFixed(1)} s\nBy place (self):\n${list(byPlace)}\nBy function (self):\n${list(byFunction, 60)}\n` +
    `By function (with callees):\n${list(inclusive, 60)}`
  );
}

// `tsx src/profile-summary.ts <dir>` summarises an earlier run's profiles.
if (process.argv[1]?.endsWith('profile-summary.ts') && process.argv[2]) process.stdout.write(`${summariseProfiles(process.argv[2])}\n`);
