import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids';
import { fx, sweep, useBadInputServer, type Sent } from './bad-input-fixture';
import { fill, sweepRoutes } from './bad-input-requests';
import { PATH_VALUES } from './bad-input-values';

/**
 * Bad input to the routes beside the contract (upload receiver, docs) and to every contract path under methods it
 * does not declare: the answer is a 2xx (a page, or a redirect for the docs) or the spec's error shape, never a 5xx
 * and never a stack trace.
 */

useBadInputServer();

const routes = sweepRoutes;

describe('routes outside the contract', () => {
  it('the upload receiver answers bad ids, tokens, origins and bodies with the error shape', async () => {
    const requests: Sent[] = [];
    const ids = [...PATH_VALUES, fx.real.upl!, newId('upload')];
    const tokens = ['', `token=${fx.uploadToken}`, 'token=wrong', 'token[a]=1', 'token=1&token=2', 'token=%00', `token=${'x'.repeat(5000)}`];
    for (const id of ids) {
      for (const q of tokens) {
        for (const method of ['PUT', 'OPTIONS']) {
          requests.push({ method, path: `/v1/streams/uploads/${id}/file?${q}`, headers: { origin: 'https://evil.example' }, body: method === 'PUT' ? 'bytes' : undefined });
        }
      }
    }
    const path = `/v1/streams/uploads/${fx.real.upl}/file?token=${fx.uploadToken}`;
    requests.push({ method: 'PUT', path, headers: { origin: '%00' }, body: 'x' });
    requests.push({ method: 'PUT', path, body: '' });
    requests.push({ method: 'OPTIONS', path, headers: { origin: 'https://a.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x'.repeat(5000) } });
    expect(await sweep(requests)).toEqual([]);
  });

  it('the docs routes answer odd paths with a page, a redirect or the error shape', async () => {
    const paths = [
      '/docs',
      '/docs/',
      '/docs/errors',
      '/docs/errors?x[y]=1',
      '/docs/init.js',
      '/openapi.json',
      '/openapi.json?limit[a]=1',
      '/docs/assets',
      '/docs/assets/',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/../package.json',
      '/docs/assets/..%2Fpackage.json',
      '/docs/assets/%2e%2e/%2e%2e/package.json',
      '/docs/assets/%00',
      '/docs/assets/%E0%A4%A',
      '/docs/assets/nope.js',
      `/docs/assets/${'x'.repeat(300)}`,
      '/docs/%00',
      '/%00',
      '/%E0%A4%A',
      '//v1/keys',
      '/v1/keys/',
      '/v1//keys',
      '/V1/KEYS',
    ];
    const requests: Sent[] = paths.flatMap((path) =>
      ['GET', 'HEAD', 'POST', 'OPTIONS', 'PROPFIND'].map((method) => ({ method, path, headers: { authorization: `Bearer ${fx.keys.secret}` } })),
    );
    expect(await sweep(requests, true)).toEqual([]);
  });

  it('every contract path answers OPTIONS, HEAD and unknown methods with a 2xx or the error shape', async () => {
    const requests: Sent[] = routes.flatMap((route) =>
      ['OPTIONS', 'HEAD', 'PUT', 'PROPFIND'].map((method) => ({
        method,
        path: fill(route.path),
        headers: { origin: 'https://player.example', 'access-control-request-method': 'POST', authorization: `Bearer ${fx.keys.secret}` },
      })),
    );
    expect(await sweep(requests)).toEqual([]);
  });
});
