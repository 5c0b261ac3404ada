import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { RequestSummary } from './request-summary';

/** What the contract's route metadata may say about its log lines (`requestLog: 'summary'` on frequent routes). */
interface RouteLogMetadata {
  method?: string;
  path?: string;
  metadata?: { requestLog?: 'line' | 'summary' };
}

/**
 * One log line per request, when it ends: `request completed` at info, `request errored` at error for a 5xx,
 * `request aborted` when the client left first; with the request id, method and path (never the query
 * string, which may carry a token) and the status. Unlike pino-http it builds no child logger per request.
 *
 * Routes whose contract metadata says `requestLog: 'summary'` (a heartbeat every few seconds per viewer)
 * write their line at `debug` instead, and are counted into one `requests summary` line per route at `info`
 * every `summarySeconds`: a line per heartbeat cost a fifth of the server's time at a show's peak.
 */
export function requestLog(parent: Logger, summarySeconds = 60) {
  // A request line holds its id, method, path without the query, status and time, never a secret: written without
  // the redaction pass over the secret paths, which cost a line five times what its JSON does.
  const log = parent.child({}, { redact: [] });
  const summary = new RequestSummary();
  const timer = setInterval(() => summary.flush(log, summarySeconds), summarySeconds * 1000);
  timer.unref();

  return (req: Request, res: Response, next: NextFunction) => {
    const started = Date.now();
    res.once('close', () => {
      const status = res.statusCode;
      const failed = status >= 500;
      const route = (req as Request & { tsRestRoute?: RouteLogMetadata }).tsRestRoute;
      const summarised = route?.metadata?.requestLog === 'summary';
      const aborted = !res.writableFinished;
      const elapsed = Date.now() - started;
      if (summarised) summary.add(`${route!.method} ${route!.path}`, aborted ? 0 : status, elapsed);
      const level = failed && !aborted ? 'error' : summarised ? 'debug' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const line = {
        req: { id: req.id, method: req.method, url: req.originalUrl.split('?')[0] },
        res: { statusCode: status },
        responseTime: elapsed,
      };
      log[level](line, aborted ? 'request aborted' : failed ? 'request errored' : 'request completed');
    });
    next();
  };
}
