import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@svc/contract';
import { SECRET_FIELDS } from './secret-fields';
import { stripSecrets } from './strip-secrets';

const SECRET = 'S3CR3T-VALUE-do-not-leak';

/** One object of every type with a declared secret, each secret set to SECRET. */
function objectsWithSecrets(): Record<string, unknown>[] {
  return [
    {
      id: 'ls_1',
      object: 'live_stream',
      stream_key: SECRET,
      ingest: { rtmp_url: 'rtmps://ingest.example/live', stream_key: SECRET, srt_url: 'srt://x', srt_passphrase: SECRET, whip_url: null },
      simulcast_targets: [
        { url: 'rtmp://a', stream_key: SECRET, status: 'active' },
        { object: 'simulcast_target', url: 'rtmp://b', stream_key: SECRET },
      ],
      metadata: {},
    },
    { id: 'upl_1', object: 'upload', url: `https://upload.example/${SECRET}`, cors_origin: 'https://a.example', status: 'waiting' },
    { object: 'simulcast_target', url: 'rtmp://c', stream_key: SECRET },
    { id: 'key_1', object: 'api_key', secret: SECRET, redacted: 'sk_test_abcd…' },
    { id: 'whe_1', object: 'webhook_endpoint', url: 'https://h.example', secret: SECRET },
    { id: 'ctk_1', object: 'customer_token_key', name: 'k', secret: SECRET },
    { id: 'sk_1', object: 'signing_key', key_id: 'k', private_key: SECRET },
    { id: 'sk_2', object: 'playback_signing_key', key_id: 'k', private_key: SECRET },
    { id: 'mpc_1', object: 'provider_configuration', api_token: SECRET, signing_key: SECRET, webhook_secret: SECRET, notification_secret: SECRET },
  ];
}

describe('stripSecrets', () => {
  it('removes every declared secret field of every object type', () => {
    const objects = objectsWithSecrets();
    const covered = new Set(objects.map((o) => o.object));
    for (const type of Object.keys(SECRET_FIELDS)) expect(covered, `no sample for ${type}`).toContain(type);
    for (const object of objects) expect(JSON.stringify(stripSecrets(object))).not.toContain(SECRET);
  });

  it('keeps the rest of the object as it was', () => {
    const [stream] = objectsWithSecrets();
    expect(stripSecrets(stream!)).toEqual({
      id: 'ls_1',
      object: 'live_stream',
      ingest: { rtmp_url: 'rtmps://ingest.example/live', srt_url: 'srt://x', whip_url: null },
      simulcast_targets: [{ url: 'rtmp://a', status: 'active' }, { object: 'simulcast_target', url: 'rtmp://b' }],
      metadata: {},
    });
  });

  it('strips objects nested in other objects, e.g. an expanded upload', () => {
    const asset = { id: 'ast_1', object: 'asset', upload: objectsWithSecrets().find((o) => o.object === 'upload'), created_by: { object: 'api_key', secret: SECRET } };
    expect(JSON.stringify(stripSecrets(asset))).not.toContain(SECRET);
  });

  it('strips previous_attributes by the type of the object they belong to', () => {
    const previous = { ingest: { stream_key: SECRET }, stream_key: SECRET, url: 'https://kept.example' };
    expect(JSON.stringify(stripSecrets(previous, 'live_stream'))).not.toContain(SECRET);
    expect(stripSecrets({ url: `https://u.example/${SECRET}` }, 'upload')).toEqual({});
  });

  it('drops secret field names and redacts credential-looking values wherever they are', () => {
    const out = stripSecrets({
      id: 'x_1',
      object: 'unknown_future_object',
      password: SECRET,
      nested: { private_key: SECRET },
      notes: ['sk_live_abcdef', 'plain'],
      hook: 'whsec_abc',
      token_key: 'cts_abc',
      pem: '-----BEGIN PRIVATE KEY-----\nabc',
    });
    expect(out).toEqual({ id: 'x_1', object: 'unknown_future_object', nested: {}, notes: ['[redacted]', 'plain'], hook: '[redacted]', token_key: '[redacted]' });
  });

  it('serialises dates and drops undefined like the API does', () => {
    expect(stripSecrets({ at: new Date('2026-01-01T00:00:00Z'), gone: undefined })).toEqual({ at: '2026-01-01T00:00:00.000Z' });
  });

  it('knows every event type of the contract', () => {
    expect(EVENT_TYPES.length).toBeGreaterThan(20);
  });
});
