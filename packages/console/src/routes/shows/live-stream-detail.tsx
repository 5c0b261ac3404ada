import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { tsr } from '../../api/client';
import type { Asset, Clip, LiveStream, PlaybackLink } from '../../api/types';
import { formatDateTime } from '../../format';
import { useEnvironment } from '../../shell';
import { HlsPlayer } from '../../streams/hls-player';
import { formatDuration } from '../../streams/playback';
import { Badge, EmptyState, ErrorNote, Loading, PageHeader, toneOf } from '../../ui/ui';
import { streamTone } from './live-streams';

/** The stream key, fetched and shown only when asked for, and hidden again on request. */
function StreamKey({ id }: { id: string }) {
  const [shown, setShown] = useState(false);
  const stream = tsr.streams.liveStreams.retrieve.useQuery({
    queryKey: ['live-stream-key', id],
    queryData: { params: { id }, query: {} as never },
    enabled: shown,
    gcTime: 0,
    staleTime: 0,
  });
  const key = (stream.data?.body as { data: LiveStream } | undefined)?.data.ingest;
  return (
    <>
      <dt>Stream key</dt>
      <dd>
        {shown && key ? (
          <>
            <code data-testid="stream-key">{key.stream_key}</code>
            {key.srt_passphrase && (
              <>
                {' '}
                SRT passphrase <code>{key.srt_passphrase}</code>
              </>
            )}{' '}
            <button type="button" className="link" onClick={() => setShown(false)}>
              Hide
            </button>
          </>
        ) : (
          <>
            <span aria-hidden="true">••••••••••••</span>{' '}
            <button type="button" className="secondary" onClick={() => setShown(true)} disabled={shown && stream.isFetching}>
              {shown && stream.isFetching ? 'Revealing…' : 'Reveal stream key'}
            </button>
          </>
        )}
        <ErrorNote error={stream.error} />
      </dd>
    </>
  );
}

/** A clip's cut from its source asset. */
function ClipCut({ id }: { id: string }) {
  const clip = tsr.streams.clips.retrieve.useQuery({ queryKey: ['clip', id], queryData: { params: { id } }, staleTime: Infinity });
  const c = (clip.data?.body as { data: Clip } | undefined)?.data;
  return c ? (
    <span>
      {formatDuration(c.start_time)}–{formatDuration(c.end_time)} of <code>{c.source_asset}</code>
    </span>
  ) : (
    <code>{id}</code>
  );
}

/** What the preview plays: the stream itself or one of its assets, by playback id. */
interface Previewed {
  playbackId: string;
  title: string;
}

function Preview({ what }: { what: Previewed }) {
  const link = tsr.streams.playbackIds.createPreviewLink.useMutation();
  const [current, setCurrent] = useState<{ for: string; link: PlaybackLink } | null>(null);
  const open = async () => {
    const res = await link.mutateAsync({ params: { id: what.playbackId } });
    setCurrent({ for: what.playbackId, link: (res.body as { data: PlaybackLink }).data });
  };
  const playing = current?.for === what.playbackId ? current.link : null;
  return (
    <section className="card wide" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview: {what.title}</h2>
      {playing ? (
        <>
          <HlsPlayer url={playing.url} title={what.title} />
          <p className="muted">{playing.expires_at ? `The link works until ${formatDateTime(playing.expires_at)}.` : 'A public link: anyone with it can watch.'}</p>
        </>
      ) : (
        <button type="button" onClick={() => void open().catch(() => undefined)} disabled={link.isPending}>
          {link.isPending ? 'Opening…' : 'Play preview'}
        </button>
      )}
      <ErrorNote error={link.error} />
    </section>
  );
}

export function LiveStreamDetailPage() {
  const { stream: id } = useParams({ strict: false }) as { stream: string };
  const environment = useEnvironment();
  const one = tsr.streams.liveStreams.retrieve.useQuery({ queryKey: ['live-stream', environment, id], queryData: { params: { id }, query: {} as never }, refetchInterval: 15_000 });
  const assets = tsr.streams.assets.list.useQuery({
    queryKey: ['stream-assets', environment, id],
    queryData: { query: { live_stream: id, limit: 100 } as never },
  });
  const stream = (one.data?.body as { data: LiveStream } | undefined)?.data;
  const list = (assets.data?.body as { data: Asset[] } | undefined)?.data ?? [];
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const streamPreview = stream?.playback_ids[0] ? { playbackId: stream.playback_ids[0].id, title: 'the live stream' } : null;
  const shown = previewed ?? streamPreview;

  if (one.isPending) return <Loading what="Loading the live stream" />;
  if (!stream) return <ErrorNote error={one.error ?? new Error('No such live stream.')} />;
  return (
    <>
      <p className="crumbs">
        <Link to="/shows/streams">Live streams</Link>
      </p>
      <PageHeader title={stream.external_id ?? stream.id}>
        <Badge tone={streamTone(stream.status)}>{stream.status}</Badge>
        <Badge tone={stream.health.status === 'healthy' ? 'ok' : 'bad'}>{stream.health.status}</Badge>
      </PageHeader>
      <dl className="facts card wide">
        <dt>Id</dt>
        <dd>
          <code>{stream.id}</code>
        </dd>
        <dt>RTMP</dt>
        <dd>
          <code>{stream.ingest.rtmp_url}</code>
        </dd>
        {stream.ingest.srt_url && (
          <>
            <dt>SRT</dt>
            <dd>
              <code>{stream.ingest.srt_url}</code>
            </dd>
          </>
        )}
        <StreamKey id={stream.id} />
        <dt>Latency</dt>
        <dd>
          {stream.latency_mode}, reconnect window {stream.reconnect_window} s{stream.audio_only ? ', audio only' : ''}
        </dd>
        <dt>Playback ids</dt>
        <dd>{stream.playback_ids.map((p) => `${p.id} (${p.policy})`).join(', ') || '—'}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(stream.created_at)}</dd>
      </dl>
      {shown ? (
        <Preview what={shown} />
      ) : (
        <p className="muted">This stream has no playback id: add one with <code>POST /v1/streams/playback_ids</code> to preview it.</p>
      )}

      <h2>Recordings and clips</h2>
      <ErrorNote error={assets.error} />
      {assets.isPending ? (
        <Loading what="Loading recordings" />
      ) : list.length === 0 ? (
        <EmptyState title="No recordings yet">
          <p>Each broadcast is recorded: when the encoder connects, its recording shows here, and clips cut from it after.</p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Recordings of this stream and clips cut from them</caption>
          <thead>
            <tr>
              <th scope="col">Asset</th>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col" className="wide-only">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((a) => (
              <tr key={a.id}>
                <td>
                  <code>{a.id}</code>
                </td>
                <td>{a.source === 'clip' && a.clip ? <>Clip, <ClipCut id={a.clip} /></> : a.source === 'recording' ? 'Recording' : a.source}</td>
                <td>
                  <Badge tone={a.status === 'ready' ? 'ok' : toneOf(a.status)}>{a.status}</Badge>
                  {a.error && <span className="muted"> {a.error}</span>}
                </td>
                <td>{formatDuration(a.duration)}</td>
                <td className="wide-only">{formatDateTime(a.created_at)}</td>
                <td>
                  {a.status === 'ready' && a.playback_ids[0] && (
                    <button type="button" className="secondary" onClick={() => setPreviewed({ playbackId: a.playback_ids[0]!.id, title: `${a.source} ${a.id}` })}>
                      Preview<span className="sr-only"> {a.id}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
