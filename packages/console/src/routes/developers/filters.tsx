import { useState, type FormEvent, type ReactNode } from 'react';

/**
 * A list's filter form. The values it applies go into the URL (the caller's `apply`), so the back button
 * returns to the previous filters and a filtered list can be shared.
 */
export function FilterForm<T extends Record<string, string | undefined>>({
  initial,
  apply,
  children,
}: {
  initial: T;
  apply: (values: T) => void;
  children: (values: T, set: (key: keyof T, value: string) => void) => ReactNode;
}) {
  const [values, setValues] = useState<T>(initial);
  const set = (key: keyof T, value: string) => setValues((v) => ({ ...v, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(values);
  };
  return (
    <form className="filters" role="search" onSubmit={submit}>
      {children(values, set)}
      <button type="submit">Filter</button>
    </form>
  );
}
