import type { Fanbase, MembershipTier } from '@svc/contract';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { isInvalid } from '../../commerce/merch';
import { emptyTierForm, tierBody, tierForm, tierPrice, type TierForm } from '../../fanbases/tiers';
import { formatMoney } from '../../format';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, Field, toneOf } from '../../ui/ui';

/** A tier's fields, for a new tier and for editing one. */
function TierEditor({ fanbase, tier, onDone }: { fanbase: Fanbase; tier?: MembershipTier; onDone: (saved: boolean) => void }) {
  const [form, setForm] = useState<TierForm>(() => (tier ? tierForm(tier) : emptyTierForm()));
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = tsr.fanbases.createTier.useMutation();
  const update = tsr.fanbases.updateTier.useMutation();
  const set = (k: keyof TierForm) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = tierBody(form, fanbase.currency);
    if (isInvalid(body)) return setInvalid(body.invalid);
    setInvalid(null);
    if (tier) await update.mutateAsync({ params: { id: fanbase.id, tier: tier.id }, body });
    else await create.mutateAsync({ params: { id: fanbase.id }, body });
    onDone(true);
  };
  const name = tier ? `Edit tier ${tier.name}` : 'New tier';
  return (
    <form className="card wide" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label={name}>
      <h3>{name}</h3>
      <Field label="Tier name">
        <input required maxLength={100} autoFocus={Boolean(tier)} value={form.name} onChange={set('name')} />
      </Field>
      <Field label="Description">
        <input maxLength={2000} value={form.description} onChange={set('description')} />
      </Field>
      <Field label={`Price (${fanbase.currency})`} hint="0 is the free tier, which every member holds by joining.">
        <input inputMode="decimal" required value={form.price} onChange={set('price')} />
      </Field>
      <Field label="Interval">
        <select value={form.interval} onChange={set('interval')}>
          <option value="">None (free tier)</option>
          <option value="month">Every month</option>
          <option value="year">Every year</option>
          <option value="one_time">Paid once</option>
        </select>
      </Field>
      <Field label="Benefits" hint="What fans get, one a line.">
        <textarea rows={2} value={form.benefits} onChange={set('benefits')} />
      </Field>
      <Field label="Grants" hint="Live stream (ls_…), asset (ast_…) and content (cnt_…) ids, one a line.">
        <textarea rows={2} value={form.grants} onChange={set('grants')} />
      </Field>
      <Field label="Most members" hint="Empty: no limit.">
        <input type="number" min={1} value={form.maxMembers} onChange={set('maxMembers')} />
      </Field>
      <Field label="Tier status">
        <select value={form.status} onChange={set('status')}>
          <option value="draft">draft</option>
          <option value="published">published</option>
          <option value="archived">archived</option>
        </select>
      </Field>
      <ErrorNote error={invalid ?? create.error ?? update.error} />
      <button type="submit" disabled={create.isPending || update.isPending}>
        {tier ? 'Save tier' : 'Create tier'}
      </button>
      <button type="button" className="secondary" onClick={() => onDone(false)}>
        Cancel
      </button>
    </form>
  );
}

/** The fanbase's tiers with their price and members; new, edit and archive for members who write. */
export function Tiers({ fanbase }: { fanbase: Fanbase }) {
  const environment = useEnvironment();
  const canWrite = useCan('fanbases:write');
  const [editing, setEditing] = useState<string | null>(null);
  const list = tsr.fanbases.listTiers.useQuery({ queryKey: ['tiers', environment, fanbase.id], queryData: { params: { id: fanbase.id }, query: { limit: 100 } as never } });
  const archive = tsr.fanbases.updateTier.useMutation();
  const tiers = rowsOf<MembershipTier>(list);
  const done = (saved: boolean) => {
    setEditing(null);
    if (saved) void list.refetch();
  };
  const doArchive = async (t: MembershipTier) => {
    if (!confirm(`Archive ${t.name}? It takes no new subscriptions; running ones continue and renew.`)) return;
    await archive.mutateAsync({ params: { id: fanbase.id, tier: t.id }, body: { status: 'archived' } });
    await list.refetch();
  };
  return (
    <section aria-labelledby="tiers">
      <h2 id="tiers">Membership tiers</h2>
      <ErrorNote error={archive.error} />
      <List<MembershipTier>
        caption={`Membership tiers of ${fanbase.name}`}
        query={list}
        rows={tiers}
        rowKey={(t) => t.id}
        loading="Loading tiers"
        empty={
          <EmptyState title="No tiers yet">
            <p>Add a free tier for everyone who joins, and paid tiers for subscribers; publish them to show them to fans.</p>
          </EmptyState>
        }
        columns={[
          { header: 'Tier', cell: (t) => t.name },
          { header: 'Price', cell: (t) => tierPrice(t, formatMoney) },
          { header: 'Status', cell: (t) => <Badge tone={toneOf(t.status)}>{t.status}</Badge> },
          { header: 'Members', cell: (t) => (t.max_members ? `${t.member_count} of ${t.max_members}` : t.member_count) },
          { header: 'Grants', cell: (t) => t.grants.length, wide: true },
          canWrite && {
            header: 'Actions',
            cell: (t) => (
              <div className="row-actions">
                <button type="button" className="secondary" aria-expanded={editing === t.id} onClick={() => setEditing(t.id)}>
                  Edit<span className="sr-only"> tier {t.name}</span>
                </button>
                {t.status !== 'archived' && (
                  <button type="button" className="danger" disabled={archive.isPending} onClick={() => void doArchive(t).catch(() => undefined)}>
                    Archive<span className="sr-only"> tier {t.name}</span>
                  </button>
                )}
              </div>
            ),
          },
        ]}
      />
      {canWrite && editing === 'new' && <TierEditor fanbase={fanbase} onDone={done} />}
      {canWrite &&
        tiers
          .filter((t) => t.id === editing)
          .map((t) => <TierEditor key={`${t.id}-${t.updated_at}`} fanbase={fanbase} tier={t} onDone={done} />)}
      {canWrite && editing !== 'new' && (
        <button type="button" onClick={() => setEditing('new')}>
          New tier
        </button>
      )}
    </section>
  );
}
