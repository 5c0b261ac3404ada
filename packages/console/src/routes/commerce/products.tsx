import type { CommerceProduct } from '@svc/contract';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { emptyVariantForm, isInvalid, newVariantBody, priceRange, unitsLeft, unitsText } from '../../commerce/merch';
import { formatMoney } from '../../format';
import { withoutEmpty } from '../../search';
import { useCan, useEnvironment } from '../../shell';
import { List, rowsOf } from '../../ui/list';
import { OrganizationField, organizationOptions, useOrganizations, type Organization } from '../../ui/organizations';
import { Badge, EmptyState, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { VariantFields } from './variants';

type Filters = { status?: string; kind?: string; organization?: string };

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
      <OrganizationField organizations={organizations} value={form.organization} onChange={(organization) => setForm({ ...form, organization })} />
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
      <ErrorNote error={invalid ?? create.error} />
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
      <List<CommerceProduct>
        caption="Products, newest first"
        query={list}
        rows={rowsOf<CommerceProduct>(list)}
        rowKey={(p) => p.id}
        loading="Loading products"
        filters={{
          fields: [
            { key: 'status', label: 'Status', options: ['draft', 'published', 'archived'] },
            { key: 'kind', label: 'Kind', options: ['physical', 'digital'] },
            { key: 'organization', label: 'Organization', options: organizationOptions(organizations) },
          ],
          values: search,
          apply: (v) => void navigate({ to: '/merch/products', search: withoutEmpty(v) }),
        }}
        empty={
          <EmptyState title={filtered ? 'No products match' : 'No products yet'}>
            <p>
              {filtered
                ? 'Clear a filter to see more.'
                : canWrite
                  ? 'Create a product with its first variant, set its stock, then publish it to sell it on your pages.'
                  : 'Products your organizations sell appear here.'}
            </p>
          </EmptyState>
        }
        columns={[
          {
            header: 'Product',
            cell: (p) => (
              <Link to="/merch/products/$product" params={{ product: p.id }}>
                {p.name}
              </Link>
            ),
          },
          { header: 'Status', cell: (p) => <Badge tone={toneOf(p.status)}>{p.status}</Badge> },
          { header: 'Kind', cell: (p) => p.kind, wide: true },
          { header: 'Organization', cell: (p) => orgName(p.organization), wide: true },
          { header: 'Price', cell: (p) => priceRange(p, formatMoney) },
          { header: 'Available', cell: (p) => unitsText(unitsLeft(p)) },
        ]}
      />
    </>
  );
}
