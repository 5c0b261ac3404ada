import { tsr } from '../api/client';
import { useCan, useEnvironment } from '../shell';
import { Field } from './ui';

export type Organization = { id: string; name: string; currency?: string };

/** The organizations a member may act for, for the pickers of the product screens. */
export function useOrganizations() {
  const environment = useEnvironment();
  const canOrgs = useCan('organizations:read');
  const orgs = tsr.organizations.list.useQuery({ queryKey: ['organizations', environment], queryData: { query: { limit: 100 } } as never, enabled: canOrgs });
  return { organizations: ((orgs.data?.body as { data?: Organization[] } | undefined)?.data ?? []) as Organization[], pending: canOrgs && orgs.isPending };
}

/** The organizations as a filter's options: the id sent, the name shown. */
export const organizationOptions = (organizations: Organization[]) => organizations.map((o) => ({ value: o.id, label: o.name }));

/** A picker of one organization, for a form that makes something of it. */
export function OrganizationField({ label = 'Organization', organizations, value, onChange }: { label?: string; organizations: Organization[]; value: string; onChange: (id: string) => void }) {
  return (
    <Field label={label}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
