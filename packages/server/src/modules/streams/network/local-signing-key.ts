import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { NetworkSigningKey } from './video-network';

const generateKeyPairAsync = promisify(generateKeyPair);

/** An RSA key for RS256 playback tokens, made on this server: for networks whose keys no provider holds. */
export async function makeLocalSigningKey(providerRef: string): Promise<NetworkSigningKey> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { providerRef, publicKeyPem: publicKey, privateKeyPem: privateKey };
}
