/** Calls to the API as a tenant's server or a buyer's page would make them, for the parts of a story the console does not play. */
export function api(base: string) {
  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, requestId: res.headers.get('request-id') ?? '', body: text ? JSON.parse(text) : null };
  };
  const ok = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await call(method, path, headers, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return { call, ok };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
