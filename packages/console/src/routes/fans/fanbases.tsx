import type { Fanbase } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { OrganizationField, organizationOptions, useOrganizations, type Organization } from '../../ui/organizations';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';

type Filters = { organization?: string; status?: string };

/** A new fanbase: one per organization; its currency is the organization's unless given. */
function CreateFanbase({ organizations, onCreated }: { organizations: Organization[]; onCreated: (f: Fanbase) => void }) {
  const [form, setForm] = useState({ organization: organizations[0]?.id ?? '', name: '', description: '', grace: '7', notice: '24' });
  const create = tsr.fanbases.create.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await create.mutateAsync({
      body: {
        organization: form.organization,
        name: form.name,
        ...(form.description.trim() ? { description: form.description } : {}),
        grace_period_days: Number(form.grace),
        renewal_notice_hours: Number(form.notice),
      },
    });
    onCreated((res.body as { data: Fanbase }).data);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="new-fanbase">
      <h2 id="new-fanbase">New fanbase</h2>
      <OrganizationField organizations={organizations} value={form.organization} onChange={(organization) => setForm({ ...form, organization })} />
      <Field label="Fanbase name">
        <input required maxLength={100} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </Field>
      <Field label="Description">
        <textarea rows={2} maxLength={5000} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      </Field>
      <Field label="Grace days" hint="How long an unpaid renewal keeps access (0 to 30).">
        <input type="number" min={0} max={30} required value={form.grace} onChange={(e) => setForm({ ...form, grace: e.target.value })} />
      </Field>
      <Field label="Renewal notice hours" hint="How long before a period ends the renewal goes out (1 to 168).">
        <input type="number" min={1} max={168} required value={form.notice} onChange={(e) => setForm({ ...form, notice: e.target.value })} />
      </Field>
      <ErrorNote error={create.error} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create fanbase'}
      </button>
    </form>
  );
}

/** The fanbases of the member's organizations, by organization and status (in the URL); a new one from here. */
export function FanbasesPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('fanbases:write');
  const queries = useQueryClient();
  const [creating, setCreating] = useState(false);
  const { organizations, pending } = useOrganizations();
  const list = tsr.fanbases.list.useQuery({
    queryKey: ['fanbases', environment, search.organization, search.status],
    queryData: { query: { limit: 100, ...withoutEmpty(search) } as never },
  });
  const orgName = (id: string) => organizations.find((o) => o.id === id)?.name ?? id;

  return (
    <>
      <PageHeader title="Fanbases">
        {canWrite && (
          <button type="button" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            New fanbase
          </button>
        )}
      </PageHeader>
      {creating &&
        (pending ? (
          <Loading what="Loading organizations" />
        ) : (
          <CreateFanbase
            organizations={organizations}
            onCreated={(f) => {
              void queries.invalidateQueries({ queryKey: ['fanbases'] });
              void navigate({ to: '/fans/fanbases/$fanbase', params: { fanbase: f.id } });
            }}
          />
        ))}
      <List<Fanbase>
        caption="Fanbases, newest first"
        query={list}
        rows={rowsOf<Fanbase>(list)}
        rowKey={(f) => f.id}
        loading="Loading fanbases"
        filters={{
          fields: [
            { key: 'organization', label: 'Organization', options: organizationOptions(organizations) },
            { key: 'status', label: 'Status', options: ['active', 'archived'] },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/fans/fanbases', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title="No fanbases yet">
            <p>{canWrite ? 'Create a fanbase for an organization, add its membership tiers, then publish them for fans to join.' : 'Fanbases of your organizations appear here.'}</p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Fanbase',
            cell: (f) => (
              <Link to="/fans/fanbases/$fanbase" params={{ fanbase: f.id }}>
                {f.name}
              </Link>
            ),
          },
          { header: 'Status', cell: (f) => <Badge tone={toneOf(f.status)}>{f.status}</Badge> },
          { header: 'Organization', cell: (f) => orgName(f.organization), wide: true },
          { header: 'Members', cell: (f) => f.member_count },
          { header: 'Subscribers', cell: (f) => f.subscriber_count },
        ]}
      />
    </>
  );
}
