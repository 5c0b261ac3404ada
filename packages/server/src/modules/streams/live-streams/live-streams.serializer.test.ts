import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../../core/secret-box';
import { secretContext, serializeLiveStream, serializeLiveStreamForEvent, type ShownLiveStream } from './live-streams.serializer';

const box = new SecretBox(randomBytes(32));

function row(id: string, srt: boolean): ShownLiveStream {
  return {
    id,
    livemode: false,
    status: 'idle',
    provider: 'simulated',
    latency_mode: 'low',
    reconnect_window: 60,
    audio_only: false,
    playback_policy: 'signed',
    stream_key_sealed: box.encrypt(`key-of-${id}`, secretContext(id, 'stream_key')),
    srt_passphrase_sealed: srt ? box.encrypt(`pass-of-${id}`, secretContext(id, 'srt_passphrase')) : null,
    ingest: { rtmp_url: 'rtmps://a/live', rtmp_backup_url: 'rtmps://b/live', srt_url: 'srt://c', whip_url: 'https://d/whip' },
    health: { status: 'healthy', network: 'simulated', reason: null, changed_at: '2026-01-01T00:00:00.000Z' },
    sequence: 3,
    external_id: 'ext-1',
    metadata: { tier: 'gold' },
    created_at: new Date('2026-01-01T00:00:00.123Z'),
    updated_at: '2026-01-02T00:00:00.456Z',
  } as ShownLiveStream;
}

describe('serializeLiveStream', () => {
  it('is the event shape with the unsealed secrets last in `ingest`, byte for byte', () => {
    const rel = {
      targets: [{ id: 'st_1', url: 'rtmp://x/live', status: 'idle', error: null, created_at: '2026-01-01T00:00:00.000Z' }],
      playbackIds: [{ id: 'pb_1', policy: 'signed' }],
    } as never;
    for (const srt of [true, false]) {
      const r = row(`ls_${srt}`, srt);
      const event = serializeLiveStreamForEvent(r, rel);
      const expected = {
        ...event,
        ingest: { ...event.ingest, stream_key: `key-of-${r.id}`, srt_passphrase: srt ? `pass-of-${r.id}` : null },
      };
      expect(JSON.stringify(serializeLiveStream(r, rel, box))).toBe(JSON.stringify(expected));
    }
  });
});
