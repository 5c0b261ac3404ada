import { Link } from '@tanstack/react-router';
import { tsr } from '../../api/client';
import type { LiveStream } from '../../api/types';
import { formatDateTime } from '../../format';
import { useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Loading, PageHeader } from '../../ui/ui';

/** A stream's status as a badge tone: live is good news, a dropped encoder is a warning, disabled is off. */
export const streamTone = (status: LiveStream['status']) =>
  status === 'active' ? 'ok' : status === 'connecting' || status === 'disconnected' ? 'warn' : status === 'disabled' ? 'bad' : 'muted';

/** The environment's live streams with their status and health; the stream key is never shown here. */
export function LiveStreamsPage() {
  const environment = useEnvironment();
  const list = tsr.streams.liveStreams.list.useQuery({
    queryKey: ['live-streams', environment],
    queryData: { query: { limit: 100 } as never },
    refetchInterval: 15_000,
  });
  const streams = (list.data?.body as { data: LiveStream[] } | undefined)?.data ?? [];
  return (
    <>
      <PageHeader title="Live streams" />
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="Loading live streams" />
      ) : streams.length === 0 ? (
        <EmptyState title={`No ${environment} live streams yet`}>
          <p>
            Create one with <code>POST /v1/streams/live_streams</code> (or an SDK); it shows here with its status, a preview and its
            recordings.
          </p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Live streams, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Stream</th>
              <th scope="col">Status</th>
              <th scope="col">Health</th>
              <th scope="col">Latency</th>
              <th scope="col">Playback</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {streams.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to="/shows/streams/$stream" params={{ stream: s.id }}>
                    {s.external_id ?? s.id}
                  </Link>
                  {s.external_id && (
                    <>
                      <br />
                      <code className="muted">{s.id}</code>
                    </>
                  )}
                </td>
                <td>
                  <Badge tone={streamTone(s.status)}>{s.status}</Badge>
                </td>
                <td>
                  <Badge tone={s.health.status === 'healthy' ? 'ok' : 'bad'}>{s.health.status}</Badge>
                  {s.health.reason && <span className="muted"> {s.health.reason}</span>}
                </td>
                <td>{s.latency_mode}</td>
                <td>{s.playback_ids.map((p) => p.policy).join(', ') || '—'}</td>
                <td>{formatDateTime(s.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
