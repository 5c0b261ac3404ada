import pino, { type Logger } from 'pino';

/** Headers and fields that carry secrets; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["svc-publishable-key"]',
  'req.headers.cookie',
  'req.headers["cf-webhook-auth"]',
  'res.headers["set-cookie"]',
  '*.secret',
  '*.stream_key',
  '*.password',
  '*.api_token',
  '*.pem',
  '*.webhook_secret',
  '*.notification_secret',
];

/** Lines are written once this many bytes wait, or every `LOG_FLUSH_MS`, whichever comes first. */
const LOG_BUFFER_BYTES = 4096;
const LOG_FLUSH_MS = 200;

/**
 * JSON lines to stdout (or `destination`, in tests), with secrets redacted. Stdout is written asynchronously
 * (pino's sonic-boom, `sync: false`): a synchronous write per line blocked the request thread on the pipe or
 * terminal. Lines are buffered up to 4 KB or 200 ms: at a few requests at a time, a write of its own for each
 * request's line cost about 25 µs of the process's CPU (a tenth of a refused booking's). pino flushes what is
 * buffered when the process exits; a process killed outright loses its last 200 ms of lines.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'svc' } };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS }));
}

/** Resolves once the lines logged so far are written (or after a second, whatever holds stdout). */
export function logWritten(log: Logger): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    log.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
