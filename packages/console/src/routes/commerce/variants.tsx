import type { CommerceProduct, ProductVariant } from '@svc/contract';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { emptyVariantForm, isInvalid, newVariantBody, unitsText, variantForm, variantPatch, type VariantForm } from '../../commerce/merch';
import { formatMoney } from '../../format';
import { useCan } from '../../shell';
import { List } from '../../ui/list';
import { Badge, EmptyState, ErrorNote, Field } from '../../ui/ui';

/** A variant's fields, for a new product's first variant and for a new variant. */
export function VariantFields({ form, currency, onChange }: { form: VariantForm; currency: string; onChange: (f: VariantForm) => void }) {
  const set = (k: keyof VariantForm) => (e: { target: { value: string } }) => onChange({ ...form, [k]: e.target.value });
  return (
    <>
      <Field label="Variant name" hint="e.g. Black / L">
        <input name="variant-name" required maxLength={100} value={form.name} onChange={set('name')} />
      </Field>
      <Field label="SKU" hint="Letters, digits, . _ - ; unique in this environment.">
        <input name="variant-sku" required maxLength={64} pattern="[A-Za-z0-9._\-]+" value={form.sku} onChange={set('sku')} />
      </Field>
      <Field label={`Price (${currency})`}>
        <input name="variant-price" inputMode="decimal" required value={form.price} onChange={set('price')} placeholder="0" />
      </Field>
      <Field label="Stock" hint="Units on hand; empty is unlimited.">
        <input name="variant-stock" type="number" min={0} value={form.stock} onChange={set('stock')} placeholder="Unlimited" />
      </Field>
    </>
  );
}

/** One variant's price, stock and active flag, edited in place; the API's refusal (stock below reserved) shows here. */
function EditVariant({ variant, currency, onDone }: { variant: ProductVariant; currency: string; onDone: (saved: boolean) => void }) {
  const [form, setForm] = useState(() => variantForm(variant, currency));
  const [invalid, setInvalid] = useState<string | null>(null);
  const update = tsr.commerce.products.updateVariant.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const patch = variantPatch(variant, form, currency);
    if (patch === null) return onDone(false);
    if (isInvalid(patch)) return setInvalid(patch.invalid);
    setInvalid(null);
    await update.mutateAsync({ params: { id: variant.id }, body: patch });
    onDone(true);
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label={`Edit variant ${variant.sku}`}>
      <Field label={`Price (${currency})`}>
        {/* Opened from its row's Edit button: the keyboard goes straight to the first field. */}
        <input inputMode="decimal" required autoFocus value={form.price} onChange={(e) => setForm({ ...form, price: e.target.value })} />
      </Field>
      <Field label="Stock" hint={variant.reserved ? `At least ${variant.reserved}: pending orders hold them.` : 'Empty is unlimited.'}>
        <input type="number" min={0} value={form.stock} onChange={(e) => setForm({ ...form, stock: e.target.value })} placeholder="Unlimited" />
      </Field>
      <label className="check">
        <input type="checkbox" checked={form.active} onChange={(e) => setForm({ ...form, active: e.target.checked })} /> Active
      </label>
      <button type="submit" disabled={update.isPending}>
        Save variant
      </button>
      <button type="button" className="secondary" onClick={() => onDone(false)}>
        Cancel
      </button>
      <ErrorNote error={invalid ?? update.error} />
    </form>
  );
}

/** A form for one more variant of the product. */
function AddVariant({ product, onAdded }: { product: CommerceProduct; onAdded: () => Promise<unknown> }) {
  const [form, setForm] = useState(emptyVariantForm());
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = tsr.commerce.products.createVariant.useMutation();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = newVariantBody(form, product.currency);
    if (isInvalid(body)) return setInvalid(body.invalid);
    setInvalid(null);
    await create.mutateAsync({ params: { id: product.id }, body });
    setForm(emptyVariantForm());
    await onAdded();
  };
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="New variant">
      <VariantFields form={form} currency={product.currency} onChange={setForm} />
      <button type="submit" disabled={create.isPending}>
        Add variant
      </button>
      <ErrorNote error={invalid ?? create.error} />
    </form>
  );
}

/** The product's variants with their price, stock, what is available, held by pending orders and sold. */
export function Variants({ product, onChanged }: { product: CommerceProduct; onChanged: () => Promise<unknown> }) {
  const canWrite = useCan('commerce:write');
  const [editing, setEditing] = useState<string | null>(null);
  const editable = canWrite && product.status !== 'archived';
  return (
    <section aria-labelledby="variants">
      <h2 id="variants">Variants</h2>
      <List<ProductVariant>
        caption={`Variants of ${product.name}`}
        scroll
        query={{ isPending: false, error: null }}
        rows={product.variants}
        rowKey={(v) => v.id}
        loading="Loading variants"
        empty={
          <EmptyState title="No variants yet">
            <p>Add at least one active variant (a size, a colour) with its price and stock before publishing.</p>
          </EmptyState>
        }
        columns={[
          { header: 'Variant', cell: (v) => v.name },
          { header: 'SKU', cell: (v) => <code>{v.sku}</code> },
          { header: 'Price', cell: (v) => formatMoney(v.price, product.currency) },
          { header: 'Stock', cell: (v) => unitsText(v.stock) },
          { header: 'Available', cell: (v) => unitsText(v.available) },
          { header: 'Reserved', cell: (v) => v.reserved },
          { header: 'Sold', cell: (v) => v.sold },
          { header: 'Status', cell: (v) => <Badge tone={v.active ? 'ok' : 'muted'}>{v.active ? 'active' : 'inactive'}</Badge> },
          editable && {
            header: 'Actions',
            cell: (v) => (
              <button type="button" className="secondary" aria-expanded={editing === v.id} onClick={() => setEditing(editing === v.id ? null : v.id)}>
                Edit<span className="sr-only"> {v.sku}</span>
              </button>
            ),
          },
        ]}
      />
      {editable &&
        product.variants
          .filter((v) => v.id === editing)
          .map((v) => (
            <EditVariant
              key={`${v.id}-${v.updated_at}`}
              variant={v}
              currency={product.currency}
              onDone={(saved) => {
                setEditing(null);
                if (saved) void onChanged();
              }}
            />
          ))}
      {editable && <AddVariant product={product} onAdded={onChanged} />}
    </section>
  );
}
