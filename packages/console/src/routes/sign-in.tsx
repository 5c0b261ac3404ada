import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { store, tsr } from '../api/client';
import { sessionOf } from '../api/session';
import { ErrorNote, Field } from '../ui/ui';

/**
 * A tenant's member signs in with a code sent to their email or phone (the identity service's `/auth/v1/otp`),
 * naming their tenant by its code. The console then acts as that member, within what their role grants.
 */
export function SignInPage() {
  const navigate = useNavigate();
  const { next } = useSearch({ strict: false }) as { next?: string };
  const [tenant, setTenant] = useState('');
  const [destination, setDestination] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const request = tsr.identity.auth.requestOtp.useMutation();
  const verify = tsr.identity.auth.verifyOtp.useMutation();
  const to = destination.includes('@') ? { email: destination.trim() } : { phone: destination.replace(/\s/g, '') };
  const headers = { 'x-tenant-code': tenant.trim() };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    await request.mutateAsync({ body: to, extraHeaders: headers } as never);
    setSent(true);
  };
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    const res = await verify.mutateAsync({ body: { ...to, code: code.trim() }, extraHeaders: headers } as never);
    store.session = sessionOf(tenant.trim(), (res.body as { data: Parameters<typeof sessionOf>[1] }).data);
    const target = next && next.startsWith('/console') ? next.slice('/console'.length) || '/' : '/';
    void navigate({ to: target });
  };

  return (
    <main className="sign-in">
      <h1>Sign in to the Svc console</h1>
      {!sent ? (
        <form onSubmit={(e) => void send(e).catch(() => undefined)}>
          <Field label="Tenant code" hint="Your organisation's code, as your administrator gave it.">
            <input name="tenant" required autoComplete="organization" value={tenant} onChange={(e) => setTenant(e.target.value)} />
          </Field>
          <Field label="Email or phone">
            <input name="destination" required autoComplete="username" value={destination} onChange={(e) => setDestination(e.target.value)} />
          </Field>
          <ErrorNote error={request.error} />
          <button type="submit" disabled={request.isPending}>
            {request.isPending ? 'Sending…' : 'Send a sign-in code'}
          </button>
        </form>
      ) : (
        <form onSubmit={(e) => void confirm(e).catch(() => undefined)}>
          <p>We sent a code to {destination}. It lasts a few minutes.</p>
          <Field label="Code">
            <input name="code" required inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
          </Field>
          <ErrorNote error={verify.error} />
          <button type="submit" disabled={verify.isPending}>
            {verify.isPending ? 'Checking…' : 'Sign in'}
          </button>
          <button type="button" className="link" onClick={() => setSent(false)}>
            Use another address
          </button>
        </form>
      )}
    </main>
  );
}
