/**
 * Objects on a tenant's own account are named `<mpc_id>:<provider id>`: the reference says which account
 * (and so which credentials) made the object, so it is served by that account for as long as it lives,
 * whatever the settings choose later.
 */
export const accountRef = (configId: string, providerId: string) => `${configId}:${providerId}`;

export function parseAccountRef(ref: string): { configId: string; providerId: string } {
  const colon = ref.indexOf(':');
  if (colon <= 0 || colon === ref.length - 1) throw new Error(`not an account reference: ${ref}`);
  return { configId: ref.slice(0, colon), providerId: ref.slice(colon + 1) };
}
