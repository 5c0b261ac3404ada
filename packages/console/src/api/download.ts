import { store } from './client';
import { authHeaders } from './session';

/** A file the API answers (the attendee CSV), fetched with the member's credentials and saved by the browser. */
export async function download(path: string, filename: string): Promise<void> {
  const session = store.session;
  if (!session) throw new Error('Sign in again to download.');
  const res = await fetch(path, { headers: authHeaders(session, store.environment) });
  if (!res.ok) throw new Error(`The download failed (${res.status}).`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
