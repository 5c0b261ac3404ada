import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiKey } from '@svc/contract';
import { tsr } from '../../api/client';
import { formatDateTime } from '../../format';
import { useCan, useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';

/** A new or rolled key's secret: shown once, here, and never again. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <section className="secret-once" aria-labelledby="secret-title">
      <h2 id="secret-title">Copy this secret now</h2>
      <p>It is shown only this once. Store it in your secrets manager.</p>
      <code data-testid="new-secret">{secret}</code>
      <div className="actions">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(secret)}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}

export function KeysPage() {
  const environment = useEnvironment();
  const canWrite = useCan('developers:write');
  const queries = useQueryClient();
  const list = tsr.keys.list.useQuery({ queryKey: ['keys', environment], queryData: { query: { per_page: 100 } } });
  const create = tsr.keys.create.useMutation();
  const roll = tsr.keys.roll.useMutation();
  const revoke = tsr.keys.revoke.useMutation();
  const [type, setType] = useState<'secret' | 'publishable'>('secret');
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: ['keys'] });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await create.mutateAsync({ body: { type, name: name || undefined } });
    setSecret((res.body as { data: ApiKey }).data.secret ?? null);
    setName('');
    await refresh();
  };
  const rollKey = async (key: ApiKey) => {
    if (!confirm(`Roll ${key.name ?? key.redacted}? The old secret stops working now.`)) return;
    const res = await roll.mutateAsync({ params: { id: key.id }, body: {} });
    setSecret((res.body as { data: ApiKey }).data.secret ?? null);
    await refresh();
  };
  const revokeKey = async (key: ApiKey) => {
    if (!confirm(`Revoke ${key.name ?? key.redacted}? Calls made with it will fail.`)) return;
    await revoke.mutateAsync({ params: { id: key.id } });
    await refresh();
  };
  const keys = (list.data?.body as { data: ApiKey[] } | undefined)?.data ?? [];

  return (
    <>
      <PageHeader title="API keys" />
      {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      {canWrite && (
        <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)}>
          <Field label="Type">
            <select value={type} onChange={(e) => setType(e.target.value as typeof type)}>
              <option value="secret">Secret (server side)</option>
              <option value="publishable">Publishable (browser side)</option>
            </select>
          </Field>
          <Field label="Name">
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Ticket site" maxLength={200} />
          </Field>
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}
      <ErrorNote error={list.error ?? create.error ?? roll.error ?? revoke.error} />
      {list.isPending ? (
        <Loading what="Loading keys" />
      ) : keys.length === 0 ? (
        <EmptyState title={`No ${environment} keys yet`}>
          <p>Create a secret key for your server, and a publishable key for your pages.</p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">API keys of the {environment} environment</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Last used</th>
              <th scope="col">Created</th>
              {canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.name ?? '—'}</td>
                <td>
                  <code>{k.redacted}</code>
                </td>
                <td>{k.type}</td>
                <td>
                  <Badge tone={toneOf(k.status)}>{k.status}</Badge>
                </td>
                <td>{formatDateTime(k.last_used_at)}</td>
                <td>{formatDateTime(k.created_at)}</td>
                {canWrite && (
                  <td className="row-actions">
                    {k.status === 'active' && (
                      <>
                        <button type="button" className="secondary" onClick={() => void rollKey(k).catch(() => undefined)}>
                          Roll<span className="sr-only"> {k.redacted}</span>
                        </button>
                        <button type="button" className="danger" onClick={() => void revokeKey(k).catch(() => undefined)}>
                          Revoke<span className="sr-only"> {k.redacted}</span>
                        </button>
                      </>
                    )}
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
