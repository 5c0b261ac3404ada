import type { Assignment, Promoter, TrackingCode } from '@svc/contract';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import type { TicketedEvent } from '../../api/types';
import { isInvalid } from '../../commerce/merch';
import { formatMoney } from '../../format';
import { commissionRule, ruleText, type RuleForm } from '../../promoters/commission';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, Field } from '../../ui/ui';

const onOff = (active: boolean) => <Badge tone={active ? 'ok' : 'muted'}>{active ? 'active' : 'paused'}</Badge>;

/** A new assignment: one of the organization's events, or the whole organization, with its commission rule. */
function AssignForm({ promoter, currency, events, onDone }: { promoter: Promoter; currency: string; events: TicketedEvent[]; onDone: () => void }) {
  const [target, setTarget] = useState(events[0]?.id ?? promoter.organization);
  const [rule, setRule] = useState<RuleForm>({ type: 'percent', value: '10', cap: '' });
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = tsr.promoters.createAssignment.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const commission = commissionRule(rule, currency);
    if (isInvalid(commission)) return setInvalid(commission.invalid);
    setInvalid(null);
    const type = target === promoter.organization ? 'organization' : 'event';
    await create.mutateAsync({ params: { id: promoter.id }, body: { target: { type, id: target }, commission } });
    onDone();
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New assignment">
      <Field label="Sells">
        <select value={target} onChange={(e) => setTarget(e.target.value)}>
          {events.map((ev) => (
            <option key={ev.id} value={ev.id}>
              {ev.name}
            </option>
          ))}
          <option value={promoter.organization}>Everything of the organization</option>
        </select>
      </Field>
      <Field label="Commission">
        <select value={rule.type} onChange={(e) => setRule({ ...rule, type: e.target.value as RuleForm['type'] })}>
          <option value="percent">Percent of net</option>
          <option value="fixed">Amount per ticket or unit</option>
        </select>
      </Field>
      <Field label={rule.type === 'percent' ? 'Percent' : `Amount (${currency})`}>
        <input inputMode="decimal" required value={rule.value} onChange={(e) => setRule({ ...rule, value: e.target.value })} />
      </Field>
      <Field label={`Most per order (${currency})`} hint="Empty: no cap.">
        <input inputMode="decimal" value={rule.cap} onChange={(e) => setRule({ ...rule, cap: e.target.value })} />
      </Field>
      <button type="submit" disabled={create.isPending}>
        Assign
      </button>
      <ErrorNote error={invalid ?? create.error} />
    </form>
  );
}

/** What the promoter sells and for what commission; paused or resumed from the row. */
export function Assignments({ promoter, currency }: { promoter: Promoter; currency: string }) {
  const environment = useEnvironment();
  const canWrite = useCan('promoters:write');
  const list = tsr.promoters.listAssignments.useQuery({ queryKey: ['assignments', environment, promoter.id], queryData: { params: { id: promoter.id }, query: { limit: 100 } as never } });
  const events = rowsOf<TicketedEvent>(
    tsr.organizerEvents.list.useQuery({ queryKey: ['events', environment, 'of', promoter.organization], queryData: { query: { limit: 100, organization: promoter.organization } as never } }),
  ).filter((e) => e.organization === promoter.organization && e.status !== 'cancelled');
  const toggle = tsr.promoters.updateAssignment.useMutation();
  const name = (a: Assignment) => (a.target.type === 'organization' ? 'Everything of the organization' : (events.find((e) => e.id === a.target.id)?.name ?? `${a.target.type} ${a.target.id}`));
  const flip = async (a: Assignment) => {
    await toggle.mutateAsync({ params: { id: promoter.id, assignment: a.id }, body: { active: !a.active } });
    await list.refetch();
  };
  return (
    <section aria-labelledby="assignments">
      <h2 id="assignments">Assignments</h2>
      <ErrorNote error={toggle.error} />
      <List<Assignment>
        caption={`What ${promoter.name} sells`}
        query={list}
        rows={rowsOf<Assignment>(list)}
        rowKey={(a) => a.id}
        loading="Loading assignments"
        empty={
          <EmptyState title="Not assigned yet">
            <p>Assign the promoter to an event, or to everything of the organization, with a commission: their codes attribute only what an assignment covers.</p>
          </EmptyState>
        }
        columns={[
          { header: 'Sells', cell: name },
          { header: 'Commission', cell: (a) => ruleText(a.commission, currency, formatMoney) },
          { header: 'Status', cell: (a) => onOff(a.active) },
          canWrite && {
            header: 'Actions',
            cell: (a) => (
              <button type="button" className="secondary" disabled={toggle.isPending} onClick={() => void flip(a).catch(() => undefined)}>
                {a.active ? 'Pause' : 'Resume'}
                <span className="sr-only"> {name(a)}</span>
              </button>
            ),
          },
        ]}
      />
      {canWrite && <AssignForm promoter={promoter} currency={currency} events={events} onDone={() => void list.refetch()} />}
    </section>
  );
}

/** The promoter's codes with their clicks, orders and link; a new code, and a code switched on or off. */
export function TrackingCodes({ promoter }: { promoter: Promoter }) {
  const environment = useEnvironment();
  const canWrite = useCan('promoters:write');
  const list = tsr.promoters.listTrackingCodes.useQuery({ queryKey: ['tracking_codes', environment, promoter.id], queryData: { params: { id: promoter.id }, query: { limit: 100 } as never } });
  const create = tsr.promoters.createTrackingCode.useMutation();
  const toggle = tsr.promoters.updateTrackingCode.useMutation();
  const [code, setCode] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await create.mutateAsync({ params: { id: promoter.id }, body: { code: code.trim() } });
    setCode('');
    await list.refetch();
  };
  const flip = async (t: TrackingCode) => {
    await toggle.mutateAsync({ params: { id: promoter.id, code_id: t.id }, body: { active: !t.active } });
    await list.refetch();
  };
  return (
    <section aria-labelledby="codes">
      <h2 id="codes">Tracking codes</h2>
      <ErrorNote error={toggle.error} />
      <List<TrackingCode>
        caption={`Tracking codes of ${promoter.name}`}
        query={list}
        rows={rowsOf<TrackingCode>(list)}
        rowKey={(t) => t.id}
        loading="Loading tracking codes"
        empty={
          <EmptyState title="No tracking codes yet">
            <p>Give the promoter a code: buyers send it as `ref` on the event page or when booking.</p>
          </EmptyState>
        }
        columns={[
          { header: 'Code', cell: (t) => <code>{t.code}</code> },
          { header: 'Status', cell: (t) => onOff(t.active) },
          { header: 'Clicks', cell: (t) => t.clicks },
          { header: 'Orders', cell: (t) => t.orders },
          { header: 'Link', cell: (t) => (t.url ? <code>{t.url}</code> : '—'), wide: true },
          canWrite && {
            header: 'Actions',
            cell: (t) => (
              <button type="button" className="secondary" disabled={toggle.isPending} onClick={() => void flip(t).catch(() => undefined)}>
                {t.active ? 'Switch off' : 'Switch on'}
                <span className="sr-only"> {t.code}</span>
              </button>
            ),
          },
        ]}
      />
      {canWrite && (
        <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New tracking code">
          <Field label="Code" hint="3 to 40 of A–Z, a–z, 0–9, _ and -; it never changes.">
            <input required pattern="[A-Za-z0-9_\-]{3,40}" value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
          <button type="submit" disabled={create.isPending}>
            Add code
          </button>
          <ErrorNote error={create.error} />
        </form>
      )}
    </section>
  );
}
