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

/** JSON lines to stdout (or `destination`, in tests), with secrets redacted. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'svc' } };
  return destination ? pino(options, destination) : pino(options);
}
