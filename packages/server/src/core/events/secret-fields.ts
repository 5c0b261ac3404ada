/**
 * Fields that hold secrets, per `object` type, as dotted paths (`[]` walks a list). They never leave the
 * service in an event: the one serializer, `stripSecrets`, removes them before an envelope is written.
 * A product adding an object with a secret adds it here.
 */
export const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  live_stream: ['stream_key', 'ingest.stream_key', 'ingest.srt_passphrase', 'simulcast_targets[].stream_key'],
  simulcast_target: ['stream_key'],
  upload: ['url'],
  api_key: ['secret'],
  webhook_endpoint: ['secret'],
  customer_token_key: ['secret'],
  signing_key: ['private_key'],
  playback_signing_key: ['private_key'],
  provider_configuration: ['api_token', 'signing_key', 'webhook_secret', 'notification_secret'],
};

/** Field names that are secret wherever they appear, whatever the object (a safety net for new objects). */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'stream_key',
  'srt_passphrase',
  'private_key',
  'secret',
  'secret_hash',
  'secret_sealed',
  'passphrase',
  'password',
  'api_token',
  'pem',
]);

/** Text that is a credential of this service whatever field holds it: API keys, webhook and token-key secrets, PEM keys. */
export const SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  /^(sk|rk)_(live|test)_/,
  /^whsec_/,
  /^cts_/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];

export const REDACTED = '[redacted]';
