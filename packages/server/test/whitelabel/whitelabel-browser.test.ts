import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { bookingBody, bookOk, seedEvent } from '../ticketing/booking-fixtures';
import { sessionOf } from '../ticketing/payments-fixtures';
import { liveSk, organization, sk } from './whitelabel-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });
/** Screenshots land here (`SVC_TEST_OUTPUT_DIR` moves them), for people to look at what a tenant's buyers see. */
const OUTPUT = join(process.env.SVC_TEST_OUTPUT_DIR ?? join(import.meta.dirname, '..', '..', 'test-output'), 'whitelabel');
const ORG_HOST = 'sautisol.example';

let browser: Browser;
let api: Server;
let assets: Server;
let apiUrl: string;
let port: number;
let assetUrl: string;

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A tenant's logo, served from a host of its own as a CDN would: a coloured badge with initials. */
const logo = (fill: string, initials: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="46" fill="${fill}" stroke="#fff" stroke-width="4"/>` +
  `<text x="48" y="60" font-family="sans-serif" font-size="36" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text></svg>`;

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  api = createServer((req, res) => t.app(req, res));
  port = await listen(api);
  apiUrl = `http://127.0.0.1:${port}`;
  assets = createServer((req, res) => {
    const svg = req.url === '/acme.svg' ? logo('#ff6600', 'AC') : logo('#aa0044', 'SS');
    res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(svg);
  });
  assetUrl = `http://127.0.0.1:${await listen(assets)}`;
  // The organization's custom domain resolves to this machine, so the browser sends it as the Host.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', `--host-resolver-rules=MAP ${ORG_HOST} 127.0.0.1`],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => api?.close(r));
  await new Promise((r) => assets?.close(r));
});

/** Opens the page and waits for the brand header's logo to load; answers the page and every refused request. */
async function open(url: string) {
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(url);
  await page.waitForFunction(LOGO_LOADED);
  return { page, errors };
}

// Run in the page (as text: the server's type-check knows no DOM).
const LOGO_LOADED = "(() => { const img = document.querySelector('#brand-logo'); return img !== null && img.complete && img.naturalWidth > 0; })()";
const background = (page: Page, selector: string) => page.$eval(selector, (el) => (globalThis as any).getComputedStyle(el).backgroundColor as string);

describe('branded pages in Chromium', () => {
  it('renders the checkout in the tenant\'s logo and colours, and in the organization\'s on its custom domain', async () => {
    const tenant = await t.tenant('Acme Events');
    expectStatus(
      await t.http().patch('/v1/branding').set(sk(tenant)).send({
        display_name: 'Acme Tickets',
        logo_url: `${assetUrl}/acme.svg`,
        colors: { primary: '#0b5fff', accent: '#ff6600', background: '#eef3ff' },
        support_email: 'help@acme.example',
        legal: { terms_url: 'https://acme.example/terms', privacy_url: 'https://acme.example/privacy' },
        footer_text: 'Acme Events Ltd · Nairobi',
      }),
      200,
    );
    const { event, ticketType, organization: orgId } = await seedEvent(t, tenant, { ticketTypes: [{ name: 'Gold', price: 250_000 }] });
    const { payment } = await bookOk(t, tenant, event.id, bookingBody(ticketType.id, 2));
    const session = sessionOf(payment);

    const plain = await open(`${apiUrl}/checkout/${session}`);
    await plain.page.waitForSelector('#checkout:not([hidden])');
    expect(await plain.page.textContent('#brand-name')).toBe('Acme Tickets');
    expect(await plain.page.getAttribute('#brand-logo', 'src')).toBe(`${assetUrl}/acme.svg`);
    expect(await background(plain.page, '#brand')).toBe('rgb(11, 95, 255)');
    expect(await background(plain.page, '#pay-card')).toBe('rgb(11, 95, 255)');
    expect(await background(plain.page, 'body')).toBe('rgb(238, 243, 255)');
    expect(await plain.page.textContent('#brand-footer')).toContain('help@acme.example');
    expect(await plain.page.title()).toContain('Acme Tickets');
    await plain.page.screenshot({ path: join(OUTPUT, 'checkout-tenant.png'), fullPage: true });
    expect(plain.errors).toEqual([]);
    await plain.page.close();

    // The venue brands itself and takes its own domain: the same checkout there wears its brand.
    expectStatus(
      await t.http().patch(`/v1/organizations/${orgId}/branding`).set(sk(tenant)).send({ display_name: 'Sauti Sol Live', logo_url: `${assetUrl}/sautisol.svg`, colors: { primary: '#aa0044' } }),
      200,
    );
    const domain = expectStatus(await t.http().post('/v1/domains').set(sk(tenant)).send({ hostname: ORG_HOST, organization: orgId, serves: ['checkout', 'capsule'] }), 201).data;
    expectStatus(await t.http().post(`/v1/test_helpers/domains/${domain.id}/simulate`).set(sk(tenant)).send({ outcome: 'verified' }), 200);
    expectStatus(await t.http().post(`/v1/test_helpers/domains/${domain.id}/simulate`).set(sk(tenant)).send({ outcome: 'active' }), 200);
    const custom = await open(`http://${ORG_HOST}:${port}/checkout/${session}`);
    await custom.page.waitForSelector('#checkout:not([hidden])');
    expect(await custom.page.textContent('#brand-name')).toBe('Sauti Sol Live');
    expect(await custom.page.textContent('#event')).toBe('The Show');
    expect(await background(custom.page, '#brand')).toBe('rgb(170, 0, 68)');
    // What the organization left unset comes from the tenant.
    expect(await background(custom.page, 'body')).toBe('rgb(238, 243, 255)');
    await custom.page.screenshot({ path: join(OUTPUT, 'checkout-custom-domain.png'), fullPage: true });
    expect(custom.errors).toEqual([]);
    await custom.page.close();
  });

  it('renders the capsule in the tenant\'s brand, and in the organization\'s on its custom domain', async () => {
    const tenant = await t.tenant('Beta Live');
    const brand = { display_name: 'Beta Live', logo_url: `${assetUrl}/acme.svg`, colors: { primary: '#117a65', background: '#f3fbf8' }, footer_text: 'Beta Live · Mombasa' };
    // Live mode on the service's own host (a tenant header's environment); test mode on a test-mode domain.
    expectStatus(await t.http().patch('/v1/branding').set(liveSk(tenant)).send({ ...brand, logo_url: 'https://cdn.beta.example/logo.svg' }), 200);
    expectStatus(await t.http().patch('/v1/branding').set(sk(tenant)).send(brand), 200);
    await organization(t, tenant, 'nyashinski', 'Nyashinski', liveSk(tenant));
    expectStatus(await t.http().patch('/v1/creator/orgs/nyashinski/capsule-profile').set(liveSk(tenant)).send({ bio: 'Rapper from Nairobi.', tagline: 'Lucky you', is_public: true }), 200);
    const res = await t.http().get('/capsules/nyashinski').query({ tenant: tenant.tenant.code });
    expect(res.status).toBe(200);
    expect(res.text).toContain('https://cdn.beta.example/logo.svg');

    const org = await organization(t, tenant, 'nyashinski', 'Nyashinski');
    expectStatus(await t.http().patch('/v1/creator/orgs/nyashinski/capsule-profile').set(sk(tenant)).send({ bio: 'Rapper from Nairobi.', tagline: 'Lucky you', is_public: true }), 200);
    // The tenant-wide brand, through the test-mode domain of the tenant (no organization of its own yet).
    const tenantDomain = expectStatus(await t.http().post('/v1/domains').set(sk(tenant)).send({ hostname: 'beta.example', serves: ['capsule'] }), 201).data;
    expectStatus(await t.http().post(`/v1/test_helpers/domains/${tenantDomain.id}/simulate`).set(sk(tenant)).send({ outcome: 'active' }), 200);

    // A browser of its own, whose resolver sends both domains here.
    const plainBrowser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', `--host-resolver-rules=MAP beta.example 127.0.0.1, MAP nyashinski.example 127.0.0.1`],
    });
    try {
      const tenantPage = await plainBrowser.newPage({ viewport: { width: 900, height: 700 } });
      await tenantPage.goto(`http://beta.example:${port}/capsules/nyashinski`);
      await tenantPage.waitForFunction(LOGO_LOADED);
      expect(await tenantPage.textContent('#brand-name')).toBe('Beta Live');
      expect(await tenantPage.textContent('#capsule-name')).toBe('Nyashinski');
      expect(await background(tenantPage, '#brand')).toBe('rgb(17, 122, 101)');
      await tenantPage.screenshot({ path: join(OUTPUT, 'capsule-tenant.png'), fullPage: true });

      expectStatus(await t.http().patch(`/v1/organizations/${org.id}/branding`).set(sk(tenant)).send({ display_name: 'Nyashinski Official', logo_url: `${assetUrl}/nyashinski.svg`, colors: { primary: '#aa0044' } }), 200);
      const orgDomain = expectStatus(await t.http().post('/v1/domains').set(sk(tenant)).send({ hostname: 'nyashinski.example', organization: org.id, serves: ['capsule'] }), 201).data;
      expectStatus(await t.http().post(`/v1/test_helpers/domains/${orgDomain.id}/simulate`).set(sk(tenant)).send({ outcome: 'active' }), 200);
      const orgPage = await plainBrowser.newPage({ viewport: { width: 900, height: 700 } });
      await orgPage.goto(`http://nyashinski.example:${port}/capsules/nyashinski`);
      await orgPage.waitForFunction(LOGO_LOADED);
      expect(await orgPage.textContent('#brand-name')).toBe('Nyashinski Official');
      expect(await background(orgPage, '#brand')).toBe('rgb(170, 0, 68)');
      expect(await background(orgPage, 'body')).toBe('rgb(243, 251, 248)');
      await orgPage.screenshot({ path: join(OUTPUT, 'capsule-custom-domain.png'), fullPage: true });
    } finally {
      await plainBrowser.close();
    }
  });
});
