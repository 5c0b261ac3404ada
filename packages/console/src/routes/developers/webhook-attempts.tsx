import { useQueryClient } from '@tanstack/react-query';
import type { WebhookAttempt } from '@svc/contract';
import { tsr } from '../../api/client';
import { formatDateTime } from '../../format';
import { useCan } from '../../shell';
import { Badge, EmptyState, ErrorNote, Loading } from '../../ui/ui';

/** One endpoint's delivery attempts, newest first, each redelivered with its original event id. */
export function WebhookAttempts({ endpoint }: { endpoint: string }) {
  const canWrite = useCan('developers:write');
  const queries = useQueryClient();
  const attempts = tsr.webhookEndpoints.listAttempts.useQuery({
    queryKey: ['webhook_attempts', endpoint],
    queryData: { params: { id: endpoint }, query: { limit: 50 } as never },
    refetchInterval: 3000,
  });
  const replay = tsr.webhookEndpoints.replay.useMutation();
  const rows = ((attempts.data?.body as { data: WebhookAttempt[] } | undefined)?.data ?? []) as WebhookAttempt[];
  const redeliver = async (a: WebhookAttempt) => {
    await replay.mutateAsync({ params: { id: endpoint }, body: { event_ids: [a.event] } });
    await queries.invalidateQueries({ queryKey: ['webhook_attempts', endpoint] });
  };
  if (attempts.isPending) return <Loading what="Loading attempts" />;
  return (
    <>
      <ErrorNote error={attempts.error ?? replay.error} />
      {replay.isSuccess && (
        <p role="status" className="notice">
          Redelivery queued.
        </p>
      )}
      {rows.length === 0 ? (
        <EmptyState title="No deliveries yet">
          <p>Send a test event to see the endpoint's answer here.</p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Delivery attempts</caption>
          <thead>
            <tr>
              <th scope="col">Result</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Latency</th>
              <th scope="col">Time</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.id}>
                <td>
                  <Badge tone={a.succeeded ? 'ok' : 'bad'}>{a.status_code ?? a.error ?? 'no answer'}</Badge>
                </td>
                <td>
                  <code>{a.event_type}</code>
                  <br />
                  <small>{a.event}</small>
                </td>
                <td>{a.attempt}</td>
                <td>{a.latency_ms} ms</td>
                <td>{formatDateTime(a.created_at)}</td>
                {canWrite && (
                  <td>
                    <button type="button" className="secondary" onClick={() => void redeliver(a).catch(() => undefined)} disabled={replay.isPending}>
                      Redeliver<span className="sr-only"> {a.event}</span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
