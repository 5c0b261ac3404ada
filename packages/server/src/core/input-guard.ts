import type { NextFunction, Request, Response } from 'express';
import { isWellFormedText, MALFORMED_TEXT_MESSAGE } from '@svc/contract';
import { ApiError } from './errors';

/** Far deeper than any body of the contract (four levels at most); deeper input only costs stack further in. */
export const MAX_INPUT_DEPTH = 32;

const NUL_MESSAGE = 'Must not contain the NUL character (U+0000).';

const PROTO_MESSAGE = '`__proto__` is not a field name: it would set the object\'s prototype.';

type Finding = { kind: 'text'; path: string; message: string } | { kind: 'depth' };

/** What is wrong with a text (value or key), if anything. */
const textProblem = (text: string): string | undefined =>
  text.includes('\0') ? NUL_MESSAGE : isWellFormedText(text) ? undefined : MALFORMED_TEXT_MESSAGE;

interface Frame {
  value: unknown;
  depth: number;
  key?: string;
  parent?: Frame;
}

/** `items.0.quantity`: the keys from the root down to `frame` (built only for a finding). */
function pathOf(frame: Frame | undefined, key?: string): string {
  const keys = key === undefined ? [] : [key];
  for (let f = frame; f?.key !== undefined; f = f.parent) keys.unshift(f.key);
  return keys.join('.');
}

/**
 * The first text (value or key) holding U+0000 or a lone surrogate, or a `__proto__` key, or a nesting deeper
 * than the limit; walked without recursion.
 */
function inspect(root: unknown): Finding | null {
  const stack: Frame[] = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { kind: 'text', path: pathOf(frame), message: problem };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_INPUT_DEPTH) return { kind: 'depth' };
    for (const [key, child] of Object.entries(value)) {
      const problem = key === '__proto__' ? PROTO_MESSAGE : textProblem(key);
      if (problem) return { kind: 'text', path: pathOf(frame, key), message: problem };
      stack.push({ value: child, depth: depth + 1, key, parent: frame });
    }
  }
  return null;
}

/**
 * Refuses input no route can use, before anything reads it: text holding U+0000 or a lone surrogate
 * (PostgreSQL cannot store either in `jsonb`, so it would fail deep inside a query; the check is the contract's
 * `isWellFormedText`), and `__proto__` keys (every parser drops them silently), in a path parameter, the query
 * or the body (`422 validation_failed`, keyed by the field's path), and bodies nested deeper than `MAX_INPUT_DEPTH`
 * (`400 invalid_request`), which would otherwise exhaust the stack of whatever walks them.
 */
export function inputGuard() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const parts: Array<[string, unknown]> = [
      ['path', req.params],
      ['query', req.query],
      ['body', req.body],
    ];
    for (const [where, value] of parts) {
      const found = inspect(value);
      if (!found) continue;
      if (found.kind === 'depth') {
        return next(
          ApiError.of('invalid_request', { message: `The request ${where} is nested more than ${MAX_INPUT_DEPTH} levels deep.`, param: where }),
        );
      }
      const param = found.path || where;
      return next(ApiError.of('validation_failed', { message: `Invalid \`${param}\`: ${found.message}`, param, details: { [param]: [found.message] } }));
    }
    next();
  };
}
