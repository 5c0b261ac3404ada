import { API_KEY_TYPES, type ApiKeyType } from '@svc/contract';
import { randomBase62 } from './fake';
import type { MockObject } from './store';

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A new secret in the server's shape for the object it belongs to. */
export function newSecret(object: MockObject): string {
  switch (object.object) {
    case 'api_key':
      return `${API_KEY_TYPES[object.type as ApiKeyType] ?? 'sk'}_${object.livemode ? 'live' : 'test'}_${randomBase62(40)}`;
    case 'customer_token_key':
      return `cts_${randomBase62(48)}`;
    case 'webhook_endpoint':
      return `whsec_${base64(crypto.getRandomValues(new Uint8Array(32)))}`;
    default:
      return `${String(object.object ?? 'obj')}_secret_${randomBase62(32)}`;
  }
}

/** Issues the object's secret: kept by the mock (to check keys and sign deliveries), shown in this answer only. */
export function issueSecret(object: MockObject, secrets: Map<string, string>): MockObject {
  const secret = newSecret(object);
  secrets.set(object.id, secret);
  if (object.object === 'api_key') object.redacted = `${secret.split('_').slice(0, 2).join('_')}_${secret.split('_')[2]!.slice(0, 8)}…`;
  return { ...object, secret };
}
