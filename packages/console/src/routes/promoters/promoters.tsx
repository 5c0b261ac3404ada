import type { Promoter } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf, usePages } from '../../ui/list';
import { OrganizationField, organizationOptions, useOrganizations, type Organization } from '../../ui/organizations';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';

type Filters = { organization?: string; status?: string };

/** What a promoter has earned and not been paid, per currency. */
export const balanceText = (p: Promoter, key: 'pending' | 'approved') => p.balances.map((b) => formatMoney(b[key], b.currency)).join(', ') || '—';

/** Invites a promoter of one organization; they sign in with the email or phone given. */
function InvitePromoter({ organizations, onCreated }: { organizations: Organization[]; onCreated: (p: Promoter) => void }) {
  const [form, setForm] = useState({ organization: organizations[0]?.id ?? '', name: '', email: '', phone: '' });
  const create = tsr.promoters.create.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await create.mutateAsync({
      body: { organization: form.organization, name: form.name, ...(form.email.trim() ? { email: form.email.trim() } : {}), ...(form.phone.trim() ? { phone: form.phone.trim() } : {}) },
    });
    onCreated((res.body as { data: Promoter }).data);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="new-promoter">
      <h2 id="new-promoter">Invite a promoter</h2>
      <OrganizationField organizations={organizations} value={form.organization} onChange={(organization) => setForm({ ...form, organization })} />
      <Field label="Promoter name">
        <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </Field>
      <Field label="Email" hint="An email or a phone: the promoter signs in with it.">
        <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
      </Field>
      <Field label="Phone" hint="E.164, e.g. +254712345678; the default M-Pesa payout number.">
        <input type="tel" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
      </Field>
      <ErrorNote error={create.error} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Inviting…' : 'Invite promoter'}
      </button>
    </form>
  );
}

/** Promoters by organization and status (in the URL), with their balances; a new one invited from here. */
export function PromotersPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('promoters:write');
  const queries = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const { organizations, pending } = useOrganizations();
  const pages = usePages(JSON.stringify(search));
  const list = tsr.promoters.list.useQuery({
    queryKey: ['promoters', environment, search, pages.query],
    queryData: { query: { limit: 50, ...withoutEmpty(search), ...pages.query } as never },
  });

  return (
    <>
      <PageHeader title="Promoters">
        {canWrite && (
          <button type="button" onClick={() => setInviting((c) => !c)} aria-expanded={inviting}>
            Invite promoter
          </button>
        )}
      </PageHeader>
      {inviting &&
        (pending ? (
          <Loading what="Loading organizations" />
        ) : (
          <InvitePromoter
            organizations={organizations}
            onCreated={(p) => {
              void queries.invalidateQueries({ queryKey: ['promoters'] });
              void navigate({ to: '/promoters/promoters/$promoter', params: { promoter: p.id } });
            }}
          />
        ))}
      <List<Promoter>
        caption="Promoters, newest first"
        query={list}
        rows={rowsOf<Promoter>(list)}
        rowKey={(p) => p.id}
        pages={pages}
        loading="Loading promoters"
        filters={{
          fields: [
            { key: 'organization', label: 'Organization', options: organizationOptions(organizations) },
            { key: 'status', label: 'Status', options: ['active', 'disabled'] },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/promoters/promoters', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No promoters yet">
            <p>{canWrite ? 'Invite a promoter, assign them to an event with a commission, and give them a tracking code.' : 'Promoters of your organizations appear here.'}</p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Promoter',
            cell: (p) => (
              <Link to="/promoters/promoters/$promoter" params={{ promoter: p.id }}>
                {p.name}
              </Link>
            ),
          },
          { header: 'Status', cell: (p) => <Badge tone={toneOf(p.status === 'disabled' ? 'disabled' : p.status)}>{p.status}</Badge> },
          { header: 'Contact', cell: (p) => p.email ?? p.phone ?? '—', wide: true },
          { header: 'Pending', cell: (p) => balanceText(p, 'pending') },
          { header: 'Approved', cell: (p) => balanceText(p, 'approved') },
        ]}
      />
    </>
  );
}
