import type { Response } from 'supertest';
import { expect } from 'vitest';

/** The answer's status (with its body in the failure message); returns the body. */
export function expectStatus(res: Response, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** An error answer: its status and code, and the parts given (`type`, `param`, `details.reason`). */
export function expectError(res: Response, status: number, code: string, expected: { type?: string; param?: string; reason?: string } = {}) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (expected.type !== undefined) expect(res.body.error.type).toBe(expected.type);
  if (expected.param !== undefined) expect(res.body.error.param).toBe(expected.param);
  if (expected.reason !== undefined) expect(res.body.error.details?.reason).toBe(expected.reason);
  return res.body.error as { code: string; type: string; message: string; param?: string | null; details?: Record<string, unknown> | null };
}
