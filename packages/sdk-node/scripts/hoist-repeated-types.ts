// The printed route types repeat each API object wherever a route answers it (an order in a dozen results). A
// consumer's compiler parses every copy, so each object type printed more than once becomes one named alias.

interface Span {
  start: number;
  end: number;
  key: string;
}

/** Every `{…}` outside comments and string literals, innermost first; `key` is its text with whitespace collapsed. */
function braceSpans(text: string, minLength: number): Span[] {
  const spans: Span[] = [];
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) break;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (ch === '{') open.push(i);
    else if (ch === '}' && open.length > 0) {
      const start = open.pop()!;
      if (i + 1 - start >= minLength) spans.push({ start, end: i + 1, key: text.slice(start, i + 1).replace(/\s+/g, ' ') });
    }
  }
  return spans;
}

/** A type literal where a type is written (after `:`, `|`, `&`, `<`, `(`, `[`, `,` or `=`), not a declaration's body. */
function inTypePosition(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 40), start).trimEnd();
  return /[:|&<(\[,=]$/.test(before) && !/\binterface\s+\w+\s*$/.test(before);
}

const nameOf = (key: string, taken: Set<string>) => {
  const object = /^\{ (?:id: string; )?object: "([a-z_]+)"/.exec(key)?.[1];
  const base = object ? object.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()) + 'Object' : 'Shape';
  for (let n = 1; ; n++) {
    const name = n === 1 && object ? base : `${base}${n}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
};

/**
 * Replaces each object type literal of at least `minLength` characters that appears more than once with a named
 * alias, the shortest first (so longer ones, and the aliases, use the shorter ones' names), and answers the text with the aliases declared.
 * Literals that name a method's type parameter `E` stay where they are.
 */
export function hoistRepeatedTypes(text: string, minLength = 100): string {
  const aliases: string[] = [];
  const taken = new Set<string>();
  for (;;) {
    const counts = new Map<string, Span[]>();
    for (const span of braceSpans(text, minLength)) {
      if (!inTypePosition(text, span.start) || /[^\w"'.]E[^\w"']/.test(span.key)) continue;
      counts.set(span.key, [...(counts.get(span.key) ?? []), span]);
    }
    const repeated = [...counts.entries()].filter(([, spans]) => spans.length > 1).sort((a, b) => a[0].length - b[0].length);
    if (repeated.length === 0) break;
    const [key, spans] = repeated[0]!;
    const name = nameOf(key, taken);
    aliases.push(`export type ${name} = ${key};`);
    // Later spans first, so earlier offsets stay valid; nested copies of one key never overlap.
    for (const span of [...spans].sort((a, b) => b.start - a.start)) text = text.slice(0, span.start) + name + text.slice(span.end);
  }
  return aliases.length ? `${text.trimEnd()}\n\n// Object types the routes share.\n${aliases.join('\n')}\n` : text;
}
