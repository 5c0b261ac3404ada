import type { CommerceSettings } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { isInvalid, settingsPatch } from '../../commerce/merch';
import { amountText, formatDateTime, formatMoney } from '../../format';
import { useCan, useEnvironment } from '../../shell';
import { EmptyState, ErrorNote, Field, Loading, PageHeader } from '../../ui/ui';
import { OrganizationField, useOrganizations } from '../../ui/organizations';

/** The settings form: how long a pending order holds stock, the shipping fee, and pickup. */
function SettingsForm({ settings, currency, onSaved }: { settings: CommerceSettings; currency: string; onSaved: () => Promise<unknown> }) {
  const update = tsr.commerce.settings.update.useMutation();
  const [form, setForm] = useState({
    hold: String(settings.hold_minutes),
    fee: amountText(settings.shipping_fee, currency),
    pickup: settings.pickup_enabled,
    instructions: settings.pickup_instructions ?? '',
  });
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = settingsPatch(form, currency);
    if (isInvalid(body)) return setInvalid(body.invalid);
    setInvalid(null);
    await update.mutateAsync({ params: { id: settings.organization }, body });
    await onSaved();
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="settings-form">
      <h2 id="settings-form">Orders and shipping</h2>
      <Field label="Hold minutes" hint="How long a pending order keeps its units before they go back on sale (5 to 1440).">
        <input type="number" min={5} max={1440} required value={form.hold} onChange={(e) => setForm({ ...form, hold: e.target.value })} />
      </Field>
      <Field label={`Shipping fee (${currency})`} hint="Added once to each order delivered; 0 for free delivery.">
        <input inputMode="decimal" required value={form.fee} onChange={(e) => setForm({ ...form, fee: e.target.value })} />
      </Field>
      <label className="check">
        <input type="checkbox" checked={form.pickup} onChange={(e) => setForm({ ...form, pickup: e.target.checked })} /> Buyers may pick up their order
      </label>
      <Field label="Pickup instructions" hint="Where and when, up to 500 characters.">
        <textarea rows={2} maxLength={500} value={form.instructions} onChange={(e) => setForm({ ...form, instructions: e.target.value })} />
      </Field>
      <ErrorNote error={invalid ?? update.error} />
      <button type="submit" disabled={update.isPending}>
        Save settings
      </button>
    </form>
  );
}

/** An organization's commerce settings; the organization is in the URL. */
export function CommerceSettingsPage() {
  const { organization } = useSearch({ strict: false }) as { organization?: string };
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('commerce:write');
  const queries = useQueryClient();
  const { organizations, pending } = useOrganizations();
  const chosen = organizations.find((o) => o.id === organization) ?? (organization ? undefined : organizations[0]);
  const id = organization ?? chosen?.id;
  const retrieve = tsr.commerce.settings.retrieve.useQuery({ queryKey: ['commerce_settings', environment, id], queryData: { params: { id: id ?? '' } }, enabled: Boolean(id) });
  const settings = (retrieve.data?.body as { data: CommerceSettings } | undefined)?.data;
  const currency = chosen?.currency ?? 'KES';

  return (
    <>
      <PageHeader title="Commerce settings" />
      {organizations.length > 1 && (
        <OrganizationField organizations={organizations} value={id ?? ''} onChange={(organization) => void navigate({ to: '/merch/settings', search: { organization } })} />
      )}
      {pending ? (
        <Loading what="Loading organizations" />
      ) : !id ? (
        <EmptyState title="No organization yet">
          <p>
            Commerce settings belong to an organization. Create one first, e.g. with a new <Link to="/shows/events">event</Link>.
          </p>
        </EmptyState>
      ) : retrieve.isPending ? (
        <Loading what="Loading the settings" />
      ) : !settings ? (
        <ErrorNote error={retrieve.error} />
      ) : (
        <>
          <dl className="facts">
            <dt>Hold</dt>
            <dd>{settings.hold_minutes} minutes</dd>
            <dt>Shipping fee</dt>
            <dd>{settings.shipping_fee ? formatMoney(settings.shipping_fee, currency) : 'Free'}</dd>
            <dt>Pickup</dt>
            <dd>{settings.pickup_enabled ? (settings.pickup_instructions ?? 'Offered') : 'Not offered'}</dd>
            <dt>Changed</dt>
            <dd>{settings.updated_at ? formatDateTime(settings.updated_at) : 'Never: these are the defaults'}</dd>
          </dl>
          {canWrite && (
            <SettingsForm
              key={`${settings.organization}-${settings.updated_at}`}
              settings={settings}
              currency={currency}
              onSaved={() => queries.invalidateQueries({ queryKey: ['commerce_settings'] })}
            />
          )}
        </>
      )}
    </>
  );
}
