import type { CommerceProduct } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { emptyVariantForm, isInvalid, newVariantBody, priceRange, unitsLeft, unitsText } from '../../commerce/merch';
import { formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { FilterForm } from '../developers/filters';
import { VariantFields } from './variants';

export type Organization = { id: string; name: string; currency?: string };
type Filters = { status?: string; kind?: string; organization?: string };

/** The organizations a member may sell for, for the pickers of the merch screens. */
export function useOrganizations() {
  const environment = useEnvironment();
  const canOrgs = useCan('organizations:read');
  const orgs = tsr.organizations.list.useQuery({ queryKey: ['organizations', environment], queryData: { query: { limit: 100 } } as never, enabled: canOrgs });
  return { organizations: ((orgs.data?.body as { data?: Organization[] } | undefined)?.data ?? []) as Organization[], pending: canOrgs && orgs.isPending };
}

/** A new product of one organization, with its first variant; it starts as a draft. */
function CreateProduct({ organizations, onCreated }: { organizations: Organization[]; onCreated: (p: CommerceProduct) => void }) {
  const [form, setForm] = useState({ organization: organizations[0]?.id ?? '', kind: 'physical' as CommerceProduct['kind'], name: '', currency: 'KES', description: '' });
  const [variant, setVariant] = useState(emptyVariantForm());
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = tsr.commerce.products.create.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const first = newVariantBody(variant, form.currency);
    if (isInvalid(first)) return setInvalid(first.invalid);
    setInvalid(null);
    const res = await create.mutateAsync({
      body: {
        organization: form.organization,
        kind: form.kind,
        name: form.name,
        currency: form.currency,
        ...(form.description.trim() ? { description: form.description } : {}),
        variants: [first],
      },
    });
    onCreated((res.body as { data: CommerceProduct }).data);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="new-product">
      <h2 id="new-product">New product</h2>
      <Field label="Organization">
        <select value={form.organization} onChange={(e) => setForm({ ...form, organization: e.target.value })}>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </Field>
      <fieldset className="choice">
        <legend>Kind</legend>
        {(['physical', 'digital'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="kind" value={k} checked={form.kind === k} onChange={() => setForm({ ...form, kind: k })} />
            {k === 'physical' ? 'Physical (shipped or picked up)' : 'Digital (grants a stream or recording)'}
          </label>
        ))}
      </fieldset>
      <Field label="Product name">
        <input name="product-name" required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </Field>
      <Field label="Description">
        <textarea maxLength={20_000} rows={3} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      </Field>
      <Field label="Currency" hint="Every variant's price is in this currency.">
        <input required pattern="[A-Z]{3}" maxLength={3} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value.toUpperCase() })} />
      </Field>
      <h3>First variant</h3>
      <VariantFields form={variant} currency={form.currency} onChange={setVariant} />
      {invalid && (
        <p className="error" role="alert">
          {invalid}
        </p>
      )}
      <ErrorNote error={create.error} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create product'}
      </button>
    </form>
  );
}

/** Products of the environment, filtered by status, kind and organization (in the URL); a new one from here. */
export function ProductsPage() {
  const search = useSearch({ strict: false }) as Filters;
  const navigate = useNavigate();
  const environment = useEnvironment();
  const canWrite = useCan('commerce:write');
  const queries = useQueryClient();
  const [creating, setCreating] = useState(false);
  const { organizations, pending } = useOrganizations();
  const list = tsr.commerce.products.list.useQuery({
    queryKey: ['products', environment, search.status, search.kind, search.organization],
    queryData: { query: { limit: 100, ...withoutEmpty(search) } as never },
  });
  const products = (list.data?.body as { data: CommerceProduct[] } | undefined)?.data ?? [];
  const orgName = (id: string) => organizations.find((o) => o.id === id)?.name ?? id;
  const filtered = Boolean(search.status || search.kind || search.organization);

  return (
    <>
      <PageHeader title="Products">
        {canWrite && (
          <button type="button" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            New product
          </button>
        )}
      </PageHeader>
      {creating &&
        (pending ? (
          <Loading what="Loading organizations" />
        ) : organizations.length === 0 ? (
          <EmptyState title="No organization to sell for">
            <p>
              Products belong to an organization. Create one first, e.g. with a new <Link to="/shows/events">event</Link>.
            </p>
          </EmptyState>
        ) : (
          <CreateProduct
            organizations={organizations}
            onCreated={(p) => {
              void queries.invalidateQueries({ queryKey: ['products'] });
              void navigate({ to: '/merch/products/$product', params: { product: p.id } });
            }}
          />
        ))}
      <FilterForm<Filters> initial={search} apply={(v) => void navigate({ to: '/merch/products', search: withoutEmpty(v) })}>
        {(v, set) => (
          <>
            <Field label="Status">
              <select value={v.status ?? ''} onChange={(e) => set('status', e.target.value)}>
                <option value="">Any</option>
                {['draft', 'published', 'archived'].map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </Field>
            <Field label="Kind">
              <select value={v.kind ?? ''} onChange={(e) => set('kind', e.target.value)}>
                <option value="">Any</option>
                <option>physical</option>
                <option>digital</option>
              </select>
            </Field>
            <Field label="Organization">
              <select value={v.organization ?? ''} onChange={(e) => set('organization', e.target.value)}>
                <option value="">Any</option>
                {organizations.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </Field>
          </>
        )}
      </FilterForm>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what="Loading products" />
      ) : products.length === 0 ? (
        <EmptyState title={filtered ? 'No products match' : 'No products yet'}>
          <p>
            {filtered
              ? 'Clear a filter to see more.'
              : canWrite
                ? 'Create a product with its first variant, set its stock, then publish it to sell it on your pages.'
                : 'Products your organizations sell appear here.'}
          </p>
        </EmptyState>
      ) : (
        <table>
          <caption className="sr-only">Products, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Status</th>
              <th scope="col" className="wide-only">
                Kind
              </th>
              <th scope="col" className="wide-only">
                Organization
              </th>
              <th scope="col">Price</th>
              <th scope="col">Available</th>
            </tr>
          </thead>
          <tbody>
            {products.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link to="/merch/products/$product" params={{ product: p.id }}>
                    {p.name}
                  </Link>
                </td>
                <td>
                  <Badge tone={toneOf(p.status)}>{p.status}</Badge>
                </td>
                <td className="wide-only">{p.kind}</td>
                <td className="wide-only">{orgName(p.organization)}</td>
                <td>{priceRange(p, formatMoney)}</td>
                <td>{unitsText(unitsLeft(p))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
