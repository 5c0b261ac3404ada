import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * One log line per request, when it ends: `request completed` at info, `request errored` at error for a 5xx,
 * `request aborted` when the client left first; with the request id, method and path (never the query
 * string, which may carry a token) and the status. Unlike pino-http it builds no child logger per request:
 * at `warn` and above an ordinary request costs one listener and nothing else.
 */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = Date.now();
    res.once('close', () => {
      const failed = res.statusCode >= 500;
      if (!log.isLevelEnabled(failed ? 'error' : 'info')) return;
      const line = {
        req: { id: req.id, method: req.method, url: req.originalUrl.split('?')[0] },
        res: { statusCode: res.statusCode },
        responseTime: Date.now() - started,
      };
      if (!res.writableFinished) log.info(line, 'request aborted');
      else if (failed) log.error(line, 'request errored');
      else log.info(line, 'request completed');
    });
    next();
  };
}
