import type { PromoterSettings } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { isInvalid } from '../../commerce/merch';
import { formatDateTime } from '../../format';
import { settingsForm, settingsPatch, type SettingsForm } from '../../promoters/settings';
import { useCan, useEnvironment } from '../../shell';
import { ErrorNote, Field, Loading, PageHeader } from '../../ui/ui';

const SELF_REFERRAL: Record<PromoterSettings['self_referral'], string> = {
  ignore: 'Ignored: a promoter buying through their own code earns nothing',
  allow: 'Allowed: a promoter earns on their own purchases',
};

function SettingsEditor({ settings, onSaved }: { settings: PromoterSettings; onSaved: () => Promise<unknown> }) {
  const update = tsr.promoters.updateSettings.useMutation();
  const [form, setForm] = useState<SettingsForm>(() => settingsForm(settings));
  const [invalid, setInvalid] = useState<string | null>(null);
  const set = (k: keyof SettingsForm) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = settingsPatch(form);
    if (isInvalid(body)) return setInvalid(body.invalid);
    setInvalid(null);
    await update.mutateAsync({ body });
    await onSaved();
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="promoter-settings-form">
      <h2 id="promoter-settings-form">Attribution and approval</h2>
      <Field label="Attribution window (days)" hint="How long after a promoter's link is followed a booking still counts for them (1 to 90).">
        <input type="number" min={1} max={90} required value={form.attribution} onChange={set('attribution')} />
      </Field>
      <Field label="Refund window (days)" hint="How long after the event ends (products: after payment) a commission waits before it is approved (0 to 90).">
        <input type="number" min={0} max={90} required value={form.refund} onChange={set('refund')} />
      </Field>
      <Field label="Link template" hint="An https URL with {code}, and {event} or {product}, e.g. https://tickets.example.com/e/{event}?ref={code}. Empty: codes have no link.">
        <input type="url" maxLength={2000} value={form.template} onChange={set('template')} />
      </Field>
      <Field label="Self-referral">
        <select value={form.selfReferral} onChange={set('selfReferral')}>
          <option value="ignore">Ignore</option>
          <option value="allow">Allow</option>
        </select>
      </Field>
      <ErrorNote error={invalid ?? update.error} />
      <button type="submit" disabled={update.isPending}>
        Save settings
      </button>
    </form>
  );
}

/** The environment's promoter settings; members read them with `promoters:read`, and change them only through a tenant role, as the API requires. */
export function PromoterSettingsPage() {
  const environment = useEnvironment();
  const canWrite = useCan('promoters:write', 'tenant');
  const queries = useQueryClient();
  const retrieve = tsr.promoters.retrieveSettings.useQuery({ queryKey: ['promoter_settings', environment] });
  const settings = (retrieve.data?.body as { data: PromoterSettings } | undefined)?.data;

  return (
    <>
      <PageHeader title="Promoter settings" />
      {retrieve.isPending ? (
        <Loading what="Loading the settings" />
      ) : !settings ? (
        <ErrorNote error={retrieve.error} />
      ) : (
        <>
          <p className="muted">These apply to every organization's promoters in {environment === 'live' ? 'live' : 'test'} data.</p>
          <dl className="facts">
            <dt>Attribution window</dt>
            <dd>{settings.attribution_window_days} days</dd>
            <dt>Refund window</dt>
            <dd>{settings.refund_window_days} days</dd>
            <dt>Link template</dt>
            <dd>{settings.link_template ? <code>{settings.link_template}</code> : 'None: tracking codes have no link'}</dd>
            <dt>Self-referral</dt>
            <dd>{SELF_REFERRAL[settings.self_referral]}</dd>
            <dt>Changed</dt>
            <dd>{settings.updated_at ? formatDateTime(settings.updated_at) : 'Never: these are the defaults'}</dd>
          </dl>
          {canWrite ? (
            <SettingsEditor key={`${environment}-${settings.updated_at}`} settings={settings} onSaved={() => queries.invalidateQueries({ queryKey: ['promoter_settings'] })} />
          ) : (
            <p className="muted">Changing these needs a tenant role with promoter write access (owner or admin).</p>
          )}
        </>
      )}
    </>
  );
}
