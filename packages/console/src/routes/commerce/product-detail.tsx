import type { CommerceProduct } from '@svc/contract';
import { Link, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { grantsOf, imagesOf, isInvalid, publishBlocker, statusMoves } from '../../commerce/merch';
import { formatDateTime } from '../../format';
import { useCan } from '../../shell';
import { Badge, ErrorNote, Field, Loading, PageHeader, toneOf } from '../../ui/ui';
import { Variants } from './variants';

/** The product's name, description, status, images and, for a digital product, what it grants. */
function EditProduct({ product, onSaved }: { product: CommerceProduct; onSaved: () => Promise<unknown> }) {
  const update = tsr.commerce.products.update.useMutation();
  const [form, setForm] = useState({
    name: product.name,
    description: product.description ?? '',
    status: product.status,
    images: product.images.join('\n'),
    grants: product.grants.map((g) => g.id).join('\n'),
  });
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const grants = product.kind === 'digital' ? grantsOf(form.grants) : [];
    if (isInvalid(grants)) return setInvalid(grants.invalid);
    setInvalid(null);
    await update.mutateAsync({
      params: { id: product.id },
      body: {
        name: form.name,
        description: form.description.trim() ? form.description : null,
        status: form.status,
        images: imagesOf(form.images),
        ...(product.kind === 'digital' ? { grants } : {}),
      },
    });
    await onSaved();
  };
  return (
    <form className="card wide" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-labelledby="edit-product">
      <h2 id="edit-product">Details</h2>
      <Field label="Name">
        <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </Field>
      <Field label="Description">
        <textarea rows={3} maxLength={20_000} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      </Field>
      <Field label="Status">
        <select value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value as CommerceProduct['status'] })}>
          <option value="draft">draft</option>
          <option value="published">published</option>
          <option value="archived">archived</option>
        </select>
      </Field>
      <Field label="Images" hint="Up to 10 https URLs, one a line.">
        <textarea rows={2} value={form.images} onChange={(e) => setForm({ ...form, images: e.target.value })} />
      </Field>
      {product.kind === 'digital' && (
        <Field label="Grants" hint="Live stream (ls_…) and asset (ast_…) ids, one a line: what a paid unit unlocks.">
          <textarea rows={2} value={form.grants} onChange={(e) => setForm({ ...form, grants: e.target.value })} />
        </Field>
      )}
      <ErrorNote error={invalid ?? update.error} />
      <button type="submit" disabled={update.isPending}>
        Save details
      </button>
    </form>
  );
}

/** One product: its details, publish or archive, and its variants with their stock. */
export function ProductDetailPage() {
  const { product: id } = useParams({ strict: false }) as { product: string };
  const canWrite = useCan('commerce:write');
  const queries = useQueryClient();
  const retrieve = tsr.commerce.products.retrieve.useQuery({ queryKey: ['product', id], queryData: { params: { id } } });
  const move = tsr.commerce.products.update.useMutation();
  const product = (retrieve.data?.body as { data: CommerceProduct } | undefined)?.data;
  const reload = () => queries.invalidateQueries({ queryKey: ['product', id] }).then(() => queries.invalidateQueries({ queryKey: ['products'] }));

  if (retrieve.isPending) return <Loading what="Loading the product" />;
  if (!product) return <ErrorNote error={retrieve.error} />;
  const blocker = publishBlocker(product);
  const doMove = async (to: CommerceProduct['status']) => {
    if (to === 'archived' && !confirm(`Archive ${product.name}? It stops selling; pending orders keep their units.`)) return;
    await move.mutateAsync({ params: { id: product.id }, body: { status: to } });
    await reload();
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/merch/products">Products</Link> ›
      </p>
      <PageHeader title={product.name}>
        <Badge tone={toneOf(product.status)}>{product.status}</Badge>
        {canWrite &&
          statusMoves(product.status).map((m) => (
            <button
              key={m.to}
              type="button"
              className={m.to === 'archived' ? 'danger' : undefined}
              disabled={move.isPending || (m.to === 'published' && blocker !== null)}
              onClick={() => void doMove(m.to).catch(() => undefined)}
            >
              {m.label}
            </button>
          ))}
      </PageHeader>
      {canWrite && product.status !== 'published' && blocker && <p className="hint">{blocker}</p>}
      <ErrorNote error={move.error} />
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{product.kind}</dd>
        <dt>Currency</dt>
        <dd>{product.currency}</dd>
        <dt>Per order</dt>
        <dd>up to {product.max_per_order} of a variant</dd>
        <dt>Published</dt>
        <dd>{formatDateTime(product.published_at)}</dd>
        <dt>Public page</dt>
        <dd>
          <code>/v1/public/products/{product.id}</code>
        </dd>
      </dl>
      <Variants product={product} onChanged={reload} />
      {canWrite && <EditProduct key={product.updated_at} product={product} onSaved={reload} />}
      <p>
        <Link to="/merch/settings" search={{ organization: product.organization }}>
          Commerce settings of its organization
        </Link>
      </p>
    </>
  );
}
