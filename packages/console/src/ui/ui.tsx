import type { ReactNode } from 'react';
import { describeError } from '../api/errors';

/** A screen's heading and its main actions. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children && <div className="actions">{children}</div>}
    </header>
  );
}

/** Work under way; announced to screen readers. */
export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {what}…
    </p>
  );
}

/** An empty list says why it is empty and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {hint && <small>{hint}</small>}
    </label>
  );
}

export function Badge({ tone, children }: { tone?: 'ok' | 'warn' | 'bad' | 'muted'; children: ReactNode }) {
  return <span className={`badge ${tone ?? 'muted'}`}>{children}</span>;
}

/** The tone of an HTTP status or an object's status. */
export function toneOf(status: string | number): 'ok' | 'warn' | 'bad' | 'muted' {
  if (typeof status === 'number') return status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';
  if (['paid', 'active', 'published', 'succeeded', 'ok', 'approved', 'enabled'].includes(status)) return 'ok';
  if (['cancelled', 'failed', 'revoked', 'rejected', 'error', 'disabled', 'expired'].includes(status)) return 'bad';
  if (['pending', 'draft', 'refunded', 'partially_refunded', 'awaiting_payment'].includes(status)) return 'warn';
  return 'muted';
}
