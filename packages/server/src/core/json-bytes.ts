import type { Express, Response } from 'express';

/**
 * A JSON answer serialized once, kept (a cached report) and sent as its bytes: `res.json` would stringify the same
 * value again on every request. Routes return it as their body (typed as the contract's body with `asBody`).
 */
export class JsonBytes {
  readonly bytes: Buffer;
  constructor(value: unknown) {
    // As express's `res.json` stringifies (the app sets no replacer, spaces or escaping): the same bytes.
    this.bytes = Buffer.from(JSON.stringify(value));
  }

  /** Whatever stringifies it (a stored idempotent answer, a log line) gets the value it holds. */
  toJSON(): unknown {
    return JSON.parse(this.bytes.toString());
  }
}

/** A kept answer as the body a route declares: what the client receives is that body's JSON. */
export const asBody = <T>(json: JsonBytes) => json as unknown as T;

/**
 * Teaches the app's `res.json` (which ts-rest calls with a route's body) to send a `JsonBytes` as it is, with the
 * headers `res.json` gives a string; `res.send` still answers HEAD and conditional requests as it does for any body.
 */
export function sendJsonBytes(app: Express): void {
  const json = app.response.json;
  app.response.json = function (this: Response, body: unknown) {
    if (!(body instanceof JsonBytes)) return json.call(this, body);
    if (this.getHeader('Content-Type') !== undefined) return json.call(this, body.toJSON());
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    return this.send(body.bytes);
  };
}
