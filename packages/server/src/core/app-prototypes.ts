import { IncomingMessage, ServerResponse } from 'node:http';

/** The classes a server gives Node for its requests and responses (`createServer({ IncomingMessage, ServerResponse })`). */
export interface AppPrototypes {
  Request: typeof IncomingMessage;
  Response: typeof ServerResponse;
  /** Makes the app's prototypes these classes', with the app's own behind them. */
  use(app: { request: object; response: object }): void;
}

/**
 * Classes whose objects have the app's prototypes once `use(app)` is called. Express gives every request and
 * response its app's prototype (`Object.setPrototypeOf` in `app.handle`). Changing the prototype of an object Node
 * had made was the largest cost of a request: `GET /v1/status` took 229–286 µs of the server's CPU with it and 81–83
 * µs without (`pnpm bench` of 2026-11-25). Under load it also kept finished requests' objects alive through
 * young-generation collections (about 4 MB a collection against 0.25 MB), to be collected later from the old
 * generation. Made with the app's prototypes, Express finds them set.
 *
 * `use` puts the app's own prototypes behind these classes' and makes the classes' the app's, so everything Express
 * and the app put on their prototypes (`req.app`, `res.json`) is still found. Subclasses rather than functions that
 * call Node's constructors keep the objects' properties in V8's fast mode.
 */
export function appPrototypes(): AppPrototypes {
  class Request extends IncomingMessage {}
  class Response<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
  return {
    Request,
    Response,
    use(app: { request: object; response: object }) {
      Object.setPrototypeOf(Request.prototype, app.request);
      Object.setPrototypeOf(Response.prototype, app.response);
      app.request = Request.prototype;
      app.response = Response.prototype;
    },
  };
}
