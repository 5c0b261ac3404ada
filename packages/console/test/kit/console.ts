import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../../server/test/spawn-server';
import { api, bearer } from './api';
import { expect } from 'vitest';
import { DESKTOP, launchChromium, PHONE, seriousViolations, shoot } from './browser';
import { startSmtp } from './smtp';

type Tenant = Awaited<ReturnType<RunningServer['createTenant']>> & { tenant: { code: string } };

/**
 * What each console story starts with: a local SMTP server for sign-in codes, the real server, a tenant whose
 * `members` (email: tenant role) are invited with the live secret key (a staff role spans both environments), and Chromium.
 */
export async function startConsole(tenantName: string, members: Record<string, string>, env: Record<string, string> = {}) {
  const smtp = await startSmtp();
  const server = await startServer({ SMTP_URL: smtp.url, SMTP_FROM: 'Svc <no-reply@svc.test>', ...env });
  const tenant = (await server.createTenant(tenantName)) as Tenant;
  const http = api(server.url);
  for (const [email, role] of Object.entries(members)) await http.ok('POST', '/v1/members', bearer(tenant.keys.live.secret), { email, role });
  const browser: Browser = await launchChromium();
  const cspViolations: string[] = [];
  return {
    server,
    smtp,
    tenant,
    http,
    browser,
    /** What the page's Content-Security-Policy refused, from every page opened by `newPage`. */
    cspViolations,
    sk: () => bearer(tenant.keys.test.secret),
    pk: () => ({ 'svc-publishable-key': tenant.keys.test.publishable }),
    /** A page in a new browser context (its own storage: its own sign-in), watched for CSP violations. */
    async newPage(options: BrowserContextOptions = {}): Promise<Page> {
      const page = await (await browser.newContext({ viewport: DESKTOP, ...options })).newPage();
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      return page;
    },
    /** A member signs in with the code mailed to them, and lands on the home screen. */
    async signIn(page: Page, email: string) {
      await page.goto(`${server.url}/console/`);
      await page.getByLabel('Tenant code').fill(tenant.tenant.code);
      await page.getByLabel('Email or phone').fill(email);
      const since = Date.now();
      await page.getByRole('button', { name: 'Send a sign-in code' }).click();
      await page.getByLabel('Code').fill(await smtp.codeFor(email, since));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    },
    /** An organization's published event (tomorrow, three hours) with one ticket type at KES 1,500.00, as the tenant's server makes it. */
    async publishedEvent(name = 'Friday show') {
      const org = await http.ok('POST', '/v1/organizations', bearer(tenant.keys.test.secret), { name: 'Acme Live', handle: 'acme_live', kind: 'brand' });
      const starts = new Date(Date.now() + 86_400_000);
      const event = await http.ok('POST', '/v1/organizer/events', bearer(tenant.keys.test.secret), {
        organization: org.id,
        name,
        starts_at: starts.toISOString(),
        ends_at: new Date(starts.getTime() + 3 * 3_600_000).toISOString(),
      });
      const ticketType = await http.ok('POST', `/v1/organizer/events/${event.id}/ticket_types`, bearer(tenant.keys.test.secret), { name: 'Regular', pricing_mode: 'fixed', price: 150_000, quantity: 100 });
      await http.ok('POST', `/v1/organizer/events/${event.id}/publish`, bearer(tenant.keys.test.secret), {});
      return { organization: org.id as string, event: event.id as string, ticketType: ticketType.id as string };
    },
    /** Each screen at phone width: its heading, nothing left loading, no serious axe violation, a screenshot; and no CSP violation. */
    async phoneScreens(page: Page, screens: ReadonlyArray<readonly [path: string, screenshot: string]>) {
      await page.setViewportSize(PHONE);
      for (const [path, name] of screens) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await settled(page);
        expect(await seriousViolations(page), path).toEqual([]);
        await shoot(page, name);
      }
      expect(cspViolations).toEqual([]);
    },
    async stop() {
      await browser.close();
      await server.stop();
      await smtp.stop();
    },
  };
}
export type ConsoleRun = Awaited<ReturnType<typeof startConsole>>;

/** A link of the console's side navigation. */
export const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });

/** Waits until the screen has nothing loading (or nothing was). */
export const settled = (page: Page) => page.locator('.loading').first().waitFor({ state: 'detached' }).catch(() => undefined);
