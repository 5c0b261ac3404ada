import type { Customer } from '@svc/contract';

/** A customer as a person reads them: name, else email or phone, with the contact below a name; the bare id if not expanded. */
export function CustomerName({ customer }: { customer: string | { id: string } }) {
  if (typeof customer === 'string') return <code>{customer}</code>;
  const c = customer as Customer;
  return (
    <>
      {c.name ?? c.email ?? c.phone ?? <code>{c.id}</code>}
      {c.name && (c.email ?? c.phone) && <div className="muted">{c.email ?? c.phone}</div>}
    </>
  );
}
