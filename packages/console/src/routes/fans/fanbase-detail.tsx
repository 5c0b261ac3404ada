import type { Fanbase } from '@svc/contract';
import { Link, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { formatDateTime } from '../../format';
import { useCan } from '../../shell';
import { Badge, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { Tiers } from './tiers';

/** The fanbase's name, description, grace and renewal notice. */
function EditFanbase({ fanbase, onSaved }: { fanbase: Fanbase; onSaved: () => Promise<unknown> }) {
  const update = tsr.fanbases.update.useMutation();
  const [form, setForm] = useState({
    name: fanbase.name,
    description: fanbase.description ?? '',
    grace: String(fanbase.grace_period_days),
    notice: String(fanbase.renewal_notice_hours),
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await update.mutateAsync({
      params: { id: fanbase.id },
      body: {
        name: form.name,
        description: form.description.trim() ? form.description : null,
        grace_period_days: Number(form.grace),
        renewal_notice_hours: Number(form.notice),
      },
    });
    await onSaved();
  };
  return (
    <form className="card wide" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="edit-fanbase">
      <h2 id="edit-fanbase">Details</h2>
      <Field label="Name">
        <input required maxLength={100} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </Field>
      <Field label="Description">
        <textarea rows={2} maxLength={5000} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      </Field>
      <Field label="Grace days" hint="0 to 30.">
        <input type="number" min={0} max={30} required value={form.grace} onChange={(e) => setForm({ ...form, grace: e.target.value })} />
      </Field>
      <Field label="Renewal notice hours" hint="1 to 168.">
        <input type="number" min={1} max={168} required value={form.notice} onChange={(e) => setForm({ ...form, notice: e.target.value })} />
      </Field>
      <ErrorNote error={update.error} />
      <button type="submit" disabled={update.isPending}>
        Save details
      </button>
    </form>
  );
}

/** One fanbase: its figures, archive or reopen, its tiers, and the way to its members and subscriptions. */
export function FanbaseDetailPage() {
  const { fanbase: id } = useParams({ strict: false }) as { fanbase: string };
  const canWrite = useCan('fanbases:write');
  const queries = useQueryClient();
  const retrieve = tsr.fanbases.retrieve.useQuery({ queryKey: ['fanbase', id], queryData: { params: { id } } });
  const move = tsr.fanbases.update.useMutation();
  const fanbase = (retrieve.data?.body as { data: Fanbase } | undefined)?.data;
  const reload = () => queries.invalidateQueries({ queryKey: ['fanbase', id] }).then(() => queries.invalidateQueries({ queryKey: ['fanbases'] }));

  if (retrieve.isPending) return <Loading what="Loading the fanbase" />;
  if (!fanbase) return <ErrorNote error={retrieve.error} />;
  const archived = fanbase.status === 'archived';
  const doMove = async () => {
    if (!archived && !confirm(`Archive ${fanbase.name}? Fans can no longer join or subscribe; running subscriptions continue.`)) return;
    await move.mutateAsync({ params: { id }, body: { status: archived ? 'active' : 'archived' } });
    await reload();
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/fans/fanbases">Fanbases</Link> ›
      </p>
      <PageHeader title={fanbase.name}>
        <Badge tone={toneOf(fanbase.status)}>{fanbase.status}</Badge>
        {canWrite && (
          <button type="button" className={archived ? undefined : 'danger'} disabled={move.isPending} onClick={() => void doMove().catch(() => undefined)}>
            {archived ? 'Reopen' : 'Archive'}
          </button>
        )}
      </PageHeader>
      <ErrorNote error={move.error} />
      <dl className="facts">
        <dt>Members</dt>
        <dd>
          <Link to="/fans/fanbases/$fanbase/members" params={{ fanbase: id }}>
            {fanbase.member_count} members
          </Link>
        </dd>
        <dt>Subscribers</dt>
        <dd>
          <Link to="/fans/subscriptions" search={{ fanbase: id }}>
            {fanbase.subscriber_count} subscribers
          </Link>
        </dd>
        <dt>Currency</dt>
        <dd>{fanbase.currency}</dd>
        <dt>Grace</dt>
        <dd>{fanbase.grace_period_days} days</dd>
        <dt>Renewal notice</dt>
        <dd>{fanbase.renewal_notice_hours} hours</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(fanbase.created_at)}</dd>
      </dl>
      <Tiers fanbase={fanbase} />
      {canWrite && <EditFanbase key={fanbase.updated_at} fanbase={fanbase} onSaved={reload} />}
    </>
  );
}
