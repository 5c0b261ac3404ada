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

/**
 * JSON lines to stdout (or `destination`, in tests), with secrets redacted. Stdout is written asynchronously
 * (pino's sonic-boom, `sync: false`): a synchronous write per line blocked the request thread on the pipe or
 * terminal. pino flushes what is buffered when the process exits.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'svc' } };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
