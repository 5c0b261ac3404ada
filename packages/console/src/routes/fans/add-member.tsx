import type { Customer, MembershipTier } from '@svc/contract';
import { useState, type FormEvent } from 'react';
import { tsr } from '../../api/client';
import { isInvalid } from '../../commerce/merch';
import { compBody, customerLookup, type CustomerLookup } from '../../fanbases/comp';
import { useCan, useEnvironment } from '../../shell';
import { rowsOf } from '../../ui/list';
import { ErrorNote, Field, Loading } from '../../ui/ui';

const label = (c: Customer) => [c.name, c.email, c.phone].filter(Boolean).join(' · ') || c.id;

/**
 * A comp member: the customer found by email or phone (the customers list, for roles that read customers) or named
 * by their `cus_` id, a tier whose grants they get, and an optional end.
 */
export function AddMemberForm({ fanbase, tiers, onDone }: { fanbase: string; tiers: MembershipTier[]; onDone: (saved: boolean) => void }) {
  const environment = useEnvironment();
  const canSearch = useCan('customers:read');
  const [text, setText] = useState('');
  const [lookup, setLookup] = useState<CustomerLookup | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [tier, setTier] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const searching = lookup !== null && !('customer' in lookup);
  const found = tsr.customers.list.useQuery({
    queryKey: ['customers', environment, lookup],
    queryData: { query: { limit: 10, ...(searching ? lookup : {}) } as never },
    enabled: searching,
  });
  const customers = searching ? rowsOf<Customer>(found) : [];
  const add = tsr.fanbases.addMember.useMutation();

  const find = () => {
    const parsed = customerLookup(text);
    setPicked(null);
    if (isInvalid(parsed)) return setInvalid(parsed.invalid);
    if (!('customer' in parsed) && !canSearch) return setInvalid("Your role cannot look customers up: type the customer's cus_ id.");
    setInvalid(null);
    setLookup(parsed);
    if ('customer' in parsed) setPicked(parsed.customer);
  };
  // One match is the customer; several (rare: the same phone on two customers) are chosen from.
  const chosen = picked ?? (customers.length === 1 ? customers[0]!.id : null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = compBody(chosen, tier, endsAt);
    if (isInvalid(body)) return setInvalid(body.invalid);
    setInvalid(null);
    await add.mutateAsync({ params: { id: fanbase }, body });
    onDone(true);
  };

  return (
    <form className="card" onSubmit={(e) => void submit(e).catch(() => undefined)} aria-label="Add a comp member">
      <h2>Add a comp member</h2>
      <Field label="Customer" hint={canSearch ? 'Their email, phone with country code, or cus_ id.' : 'Their cus_ id.'}>
        <input
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            find();
          }}
        />
      </Field>
      <button type="button" className="secondary" onClick={find}>
        Find customer
      </button>
      {searching && found.isPending && <Loading what="Looking the customer up" />}
      {searching && !found.isPending && customers.length === 0 && !found.error && (
        <p role="status">No customer has this {'email' in lookup ? 'email' : 'phone'}. A fan becomes a customer when they sign in or buy.</p>
      )}
      {customers.length === 1 && <p role="status">Found: {label(customers[0]!)}</p>}
      {customers.length > 1 && (
        <fieldset>
          <legend>Which customer?</legend>
          {customers.map((c) => (
            <label key={c.id} className="check">
              <input type="radio" name="customer" checked={chosen === c.id} onChange={() => setPicked(c.id)} /> {label(c)} <code>{c.id}</code>
            </label>
          ))}
        </fieldset>
      )}
      {lookup && 'customer' in lookup && <p role="status">Customer: <code>{lookup.customer}</code></p>}
      <Field label="Comp tier" hint="The tier whose grants they get; none: a member without a tier.">
        <select value={tier} onChange={(e) => setTier(e.target.value)}>
          <option value="">No tier</option>
          {tiers
            .filter((t) => t.status !== 'archived')
            .map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
        </select>
      </Field>
      <Field label="Ends" hint="Empty: the comp never ends.">
        <input type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} />
      </Field>
      <ErrorNote error={invalid ?? found.error ?? add.error} />
      <button type="submit" disabled={add.isPending || !chosen}>
        Add member
      </button>
      <button type="button" className="secondary" onClick={() => onDone(false)}>
        Cancel
      </button>
    </form>
  );
}
