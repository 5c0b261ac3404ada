import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TicketedEvent } from '../../api/types';
import { tsr } from '../../api/client';
import { formatDateTime, localToIso } from '../../format';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { OrganizationField, useOrganizations, type Organization } from '../../ui/organizations';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';

/** A new event; with no organization yet, the first is made from the name the member gives. */
function CreateEvent({ organizations, onCreated }: { organizations: Organization[]; onCreated: (e: TicketedEvent) => void }) {
  const [form, setForm] = useState({ organization: organizations[0]?.id ?? '', orgName: '', name: '', starts: '', ends: '' });
  const createOrg = tsr.organizations.create.useMutation();
  const create = tsr.organizerEvents.create.useMutation();
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    let organization = form.organization;
    if (!organization) {
      const handle = form.orgName.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 40) || 'organizer';
      const res = await createOrg.mutateAsync({ body: { name: form.orgName, handle, kind: 'brand' } as never });
      organization = (res.body as { data: Organization }).data.id;
    }
    const res = await create.mutateAsync({
      body: { organization, name: form.name, starts_at: localToIso(form.starts), ends_at: localToIso(form.ends) },
    });
    onCreated((res.body as { data: TicketedEvent }).data);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="new-event">
      <h2 id="new-event">New event</h2>
      {organizations.length > 0 ? (
        <OrganizationField label="Organizer" organizations={organizations} value={form.organization} onChange={(organization) => setForm((f) => ({ ...f, organization }))} />
      ) : (
        <Field label="Organizer name" hint="Your first organizer: the brand or venue that sells the tickets.">
          <input required value={form.orgName} onChange={set('orgName')} />
        </Field>
      )}
      <Field label="Event name">
        <input name="name" required maxLength={200} value={form.name} onChange={set('name')} />
      </Field>
      <Field label="Starts">
        <input name="starts" type="datetime-local" required value={form.starts} onChange={set('starts')} />
      </Field>
      <Field label="Ends">
        <input name="ends" type="datetime-local" required value={form.ends} onChange={set('ends')} />
      </Field>
      <ErrorNote error={createOrg.error ?? create.error} />
      <button type="submit" disabled={create.isPending || createOrg.isPending}>
        {create.isPending ? 'Creating…' : 'Create event'}
      </button>
    </form>
  );
}

export function EventsPage() {
  const { status } = useSearch({ strict: false }) as { status?: string };
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('events:write');
  const queries = useQueryClient();
  const [creating, setCreating] = useState(false);
  const list = tsr.organizerEvents.list.useQuery({
    queryKey: ['events', environment, status],
    queryData: { query: { limit: 100, ...(status ? { status: status as TicketedEvent['status'] } : {}) } },
  });
  const { organizations, pending } = useOrganizations();

  return (
    <>
      <PageHeader title="Events">
        {canWrite && (
          <button type="button" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            New event
          </button>
        )}
      </PageHeader>
      {creating && (pending ? <Loading what="Loading organizers" /> : (
        <CreateEvent
          organizations={organizations}
          onCreated={(e) => {
            void queries.invalidateQueries({ queryKey: ['events'] });
            void navigate({ to: '/shows/events/$event', params: { event: e.id } });
          }}
        />
      ))}
      <nav aria-label="Event status" className="tabs">
        {['', 'draft', 'published', 'cancelled'].map((s) => (
          <Link key={s} to="/shows/events" search={s ? { status: s } : {}} aria-current={(status ?? '') === s ? 'page' : undefined}>
            {s || 'All'}
          </Link>
        ))}
      </nav>
      <List<TicketedEvent>
        caption="Events"
        query={list}
        rows={rowsOf<TicketedEvent>(list)}
        rowKey={(e) => e.id}
        loading="Loading events"
        empty={
          <EmptyState title="No events here yet">
            <p>{canWrite ? 'Create an event, add its ticket types, then publish it to start selling.' : 'Events your organizers create appear here.'}</p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Event',
            cell: (e) => (
              <Link to="/shows/events/$event" params={{ event: e.id }}>
                {e.name}
              </Link>
            ),
          },
          { header: 'Status', cell: (e) => <Badge tone={toneOf(e.status)}>{e.status}</Badge> },
          { header: 'Starts', cell: (e) => formatDateTime(e.starts_at) },
        ]}
      />
    </>
  );
}
