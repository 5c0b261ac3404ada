import { importPKCS8, SignJWT } from 'jose';
import type { TestServer } from '../harness';
import { useLiveTenant } from './live-fixtures';

/** The playback tests' tenant and the helpers they share. */
export function usePlaybackTenant(t: TestServer) {
  const { tenant, api } = useLiveTenant(t, 'Playback Co');
  const play = (pathAndQuery: string) => t.http().get(pathAndQuery);
  const playWith = (pb: string, token?: string) => play(`/v1/streams/playback/${pb}.m3u8${token ? `?token=${token}` : ''}`);
  return { tenant, api, play, playWith };
}

export const scopeOf = (id: string, livemode = false) => ({ tenantId: id, livemode });
export const inOneHour = () => new Date(Date.now() + 3_600_000);
/** The path and query of a playback link (the test server has no port of its own). */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export async function tokenWith(privateKeyPem: string, kid: string, claims: { sub?: string; aud?: string; exp?: number }, alg = 'RS256') {
  const keyLike = await importPKCS8(privateKeyPem, alg);
  const jwt = new SignJWT({}).setProtectedHeader({ alg, kid }).setIssuedAt();
  if (claims.sub) jwt.setSubject(claims.sub);
  if (claims.aud) jwt.setAudience(claims.aud);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(keyLike);
}
