import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ScriptedApi } from './scripted-api';

/** Debian's Chromium, headless, with the flags this closed network needs; never a downloaded browser. Playwright gives it a fresh, empty profile. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * One Chromium for the file, and per test a fresh scripted API with a page opened on it and the SDK loaded.
 * The returned object holds the current test's `api` and `page`.
 */
export function useScriptedPage(): { api: ScriptedApi; page: Page } {
  const current = {} as { api: ScriptedApi; page: Page };
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 30_000);
  afterAll(() => browser?.close());
  beforeEach(async () => {
    current.api = new ScriptedApi();
    await current.api.start();
    current.page = await browser.newPage();
    await current.page.goto(current.api.url);
    await current.page.waitForFunction(() => (window as any).ready === true);
  });
  afterEach(async () => {
    await current.page.close();
    await current.api.stop();
  });
  return current;
}
