import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../../server/test/spawn-server';
import { api, bearer } from './api';
import { DESKTOP, launchChromium } from './browser';
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
