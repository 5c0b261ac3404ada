import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { WebhookEndpoint } from '@svc/contract';
import { tsr } from '../../api/client';
import { useCan, useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { WebhookAttempts } from './webhook-attempts';

/** Webhook endpoints: add one (its signing secret shown once), send a test event, re-enable, and each one's deliveries. */
export function WebhooksPage() {
  const { endpoint: selected } = useSearch({ strict: false }) as { endpoint?: string };
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('developers:write');
  const queries = useQueryClient();
  const list = tsr.webhookEndpoints.list.useQuery({ queryKey: ['webhook_endpoints', environment], queryData: { query: { limit: 100 } as never } });
  const create = tsr.webhookEndpoints.create.useMutation();
  const update = tsr.webhookEndpoints.update.useMutation();
  const test = tsr.webhookEndpoints.test.useMutation();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const endpoints = ((list.data?.body as { data: WebhookEndpoint[] } | undefined)?.data ?? []) as WebhookEndpoint[];
  const refresh = () => queries.invalidateQueries({ queryKey: ['webhook_endpoints'] });

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const res = await create.mutateAsync({ body: { url, enabled_events: ['*'] } });
    const made = (res.body as { data: WebhookEndpoint }).data;
    setSecret(made.secret ?? null);
    setUrl('');
    await refresh();
    void navigate({ to: '/developers/webhooks', search: { endpoint: made.id } });
  };
  const sendTest = async (id: string) => {
    await test.mutateAsync({ params: { id } } as never);
    await queries.invalidateQueries({ queryKey: ['webhook_attempts', id] });
  };
  const enable = async (id: string) => {
    await update.mutateAsync({ params: { id }, body: { status: 'enabled' } });
    await refresh();
  };

  return (
    <>
      <PageHeader title="Webhooks" />
      {secret && (
        <section className="secret-once" aria-labelledby="wh-secret">
          <h2 id="wh-secret">Signing secret</h2>
          <p>Shown once: your receiver verifies each delivery with it.</p>
          <code>{secret}</code>
          <button type="button" className="secondary" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </section>
      )}
      {canWrite && (
        <form className="inline-form" onSubmit={(e) => void add(e).catch(() => undefined)}>
          <Field label="Endpoint URL">
            <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/webhooks" />
          </Field>
          <button type="submit" disabled={create.isPending}>
            Add endpoint
          </button>
        </form>
      )}
      <ErrorNote error={list.error ?? create.error ?? update.error ?? test.error} />
      {list.isPending ? (
        <Loading what="Loading endpoints" />
      ) : endpoints.length === 0 ? (
        <EmptyState title="No webhook endpoints">
          <p>Add your server's URL: it then receives every event of this environment, signed.</p>
        </EmptyState>
      ) : (
        <ul className="endpoint-list">
          {endpoints.map((ep) => (
            <li key={ep.id} className="card wide">
              <div className="page-header">
                <h2>
                  <button type="button" className="link" aria-expanded={selected === ep.id} onClick={() => void navigate({ to: '/developers/webhooks', search: selected === ep.id ? {} : { endpoint: ep.id } })}>
                    {ep.url}
                  </button>
                </h2>
                <div className="actions">
                  <Badge tone={toneOf(ep.status)}>{ep.status}</Badge>
                  {canWrite && ep.status === 'disabled' && (
                    <button type="button" onClick={() => void enable(ep.id).catch(() => undefined)}>
                      Re-enable
                    </button>
                  )}
                  {canWrite && ep.status === 'enabled' && (
                    <button type="button" className="secondary" onClick={() => void sendTest(ep.id).catch(() => undefined)}>
                      Send test event
                    </button>
                  )}
                </div>
              </div>
              {selected === ep.id && <WebhookAttempts endpoint={ep.id} />}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
