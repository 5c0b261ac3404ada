// Writes test-vectors.json with node:crypto, independently of src/: run `node scripts/generate-test-vectors.mjs`.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const sign = (secret, t, body) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`).digest('hex');
const header = (t, body, ...secrets) => [`t=${t}`, ...secrets.map((s) => `v1=${sign(s, t, body)}`)].join(',');
// `signed_with` (the secrets, in order, that produced `header` for `body` at `t`) lets a signer check its output too.
const signed = (v, t, signedBody, ...secrets) => ({ ...v, signed_with: secrets, timestamp: t, signed_body: signedBody });

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const oldSecret = 'whsec_C2FVsBQIhrscChlQQMV+b5sSYspob7oD';
const t = 1_767_225_600; // 2026-01-01T00:00:00Z
const body = JSON.stringify({
  id: 'evt_01jz9k3m8xf2q7h0v6t4r5y1wa',
  object: 'event',
  type: 'streams.live_stream.active',
  api_version: '2026-11-01',
  created_at: '2026-01-01T00:00:00.000Z',
  livemode: false,
  tenant: 'ten_01jz9k3m8xf2q7h0v6t4r5y1wb',
  subject: 'ls_01jz9k3m8xf2q7h0v6t4r5y1wc',
  data: { object: { id: 'ls_01jz9k3m8xf2q7h0v6t4r5y1wc', object: 'live_stream', status: 'active' }, previous_attributes: { status: 'connecting' } },
  request: null,
});
const unicode = JSON.stringify({ id: 'evt_unicode', object: 'event', note: 'Café ✓ — 東京 🎟️' });

const vectors = [
  signed({ name: 'one secret', secrets: [secret], body, header: header(t, body, secret), now: t, expect: 'valid' }, t, body, secret),
  signed({ name: 'non-ASCII body, signed as UTF-8 bytes', secrets: [secret], body: unicode, header: header(t, unicode, secret), now: t + 10, expect: 'valid' }, t, unicode, secret),
  signed({ name: 'rolling: two v1 values, receiver knows only the new secret', secrets: [secret], body, header: header(t, body, secret, oldSecret), now: t, expect: 'valid' }, t, body, secret, oldSecret),
  { name: 'rolling: two v1 values, receiver knows only the old secret', secrets: [oldSecret], body, header: header(t, body, secret, oldSecret), now: t, expect: 'valid' },
  { name: 'receiver holds both secrets, header signed by the old one', secrets: [secret, oldSecret], body, header: header(t, body, oldSecret), now: t, expect: 'valid' },
  { name: 'unknown schemes are ignored', secrets: [secret], body, header: `${header(t, body, secret)},v0=deadbeef`, now: t, expect: 'valid' },
  { name: 'timestamp 300 s old is accepted', secrets: [secret], body, header: header(t, body, secret), now: t + 300, expect: 'valid' },
  { name: 'timestamp 301 s old is refused', secrets: [secret], body, header: header(t, body, secret), now: t + 301, expect: 'timestamp_outside_tolerance' },
  { name: 'timestamp 301 s in the future is refused', secrets: [secret], body, header: header(t, body, secret), now: t - 301, expect: 'timestamp_outside_tolerance' },
  { name: 'wrong secret', secrets: ['whsec_wrong'], body, header: header(t, body, secret), now: t, expect: 'no_matching_signature' },
  { name: 'body changed after signing', secrets: [secret], body: body.replace('active', 'idle'), header: header(t, body, secret), now: t, expect: 'no_matching_signature' },
  { name: 'body re-serialised with spaces', secrets: [secret], body: JSON.stringify(JSON.parse(body), null, 2), header: header(t, body, secret), now: t, expect: 'no_matching_signature' },
  { name: 'timestamp changed after signing', secrets: [secret], body, header: header(t, body, secret).replace(`t=${t}`, `t=${t + 1}`), now: t, expect: 'no_matching_signature' },
  { name: 'no header', secrets: [secret], body, header: '', now: t, expect: 'missing_header' },
  { name: 'no t', secrets: [secret], body, header: `v1=${sign(secret, t, body)}`, now: t, expect: 'malformed_header' },
  { name: 'no v1', secrets: [secret], body, header: `t=${t}`, now: t, expect: 'malformed_header' },
  { name: 't not a number', secrets: [secret], body, header: `t=soon,v1=${sign(secret, t, body)}`, now: t, expect: 'malformed_header' },
  { name: 'not key=value', secrets: [secret], body, header: 'garbage', now: t, expect: 'malformed_header' },
];

writeFileSync(
  new URL('../test-vectors.json', import.meta.url),
  `${JSON.stringify({ description: 'Svc-Signature test vectors: verify `body` (UTF-8) against `header` with `secrets`, the receiver clock at `now` (Unix seconds), tolerance 300 s. `expect` is `valid` or the error reason.', tolerance_seconds: 300, vectors }, null, 2)}\n`,
);
