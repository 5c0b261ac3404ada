import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { Result } from '../measure';
import type { Scenario } from './types';

const LOADS = 5;
const BUDGET_MS = 1000;
const BUDGET_KB = 300;

/** The first screen's files as `/console/` names them: its entry script, the chunks it preloads, its stylesheet. */
async function firstScreen(base: string): Promise<{ jsGzipKb: number; cssGzipKb: number; files: number }> {
  const html = await (await fetch(`${base}/console/`)).text();
  const refs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+\.(js|css))"/g)].map((m) => ({ path: m[1]!, kind: m[2]! }));
  let js = 0;
  let css = 0;
  for (const ref of refs) {
    const bytes = Buffer.from(await (await fetch(new URL(ref.path, base))).arrayBuffer());
    const gz = gzipSync(bytes, { level: 9 }).length;
    if (ref.kind === 'js') js += gz;
    else css += gz;
  }
  return { jsGzipKb: js / 1024, cssGzipKb: css / 1024, files: refs.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The console's first load on localhost from a cold cache (a fresh browser profile each time): from navigation to
 * the sign-in form on screen, in Debian's Chromium; and the first screen's JavaScript, gzipped.
 */
export const consoleFirstLoad: Scenario = {
  name: 'console-first-load',
  run: async (ctx) => {
    const size = await firstScreen(ctx.svc.url);
    const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
    const sizeNote = `console: first screen ${size.jsGzipKb.toFixed(1)} KB of JavaScript and ${size.cssGzipKb.toFixed(1)} KB of CSS gzipped, ${size.files} files (budget ${BUDGET_KB} KB of JavaScript).`;
    if (!existsSync(executablePath)) return { results: [], notes: [sizeNote, 'console: first load not measured: no Chromium at /usr/bin/chromium.'] };
    const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const times: number[] = [];
    try {
      for (let i = 0; i < LOADS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${ctx.svc.url}/console/sign-in`);
        await page.getByRole('heading', { name: 'Sign in to the Svc console' }).waitFor();
        times.push(performance.now() - started);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    const p50 = median(times);
    const result: Result = {
      requestsPerSecond: 0,
      p50Ms: p50,
      p99Ms: Math.max(...times),
      maxMs: Math.max(...times),
      errors: 0,
      non2xx: 0,
      peakRssMb: 0,
      total: LOADS,
      cpuUsPerRequest: 0,
      cpuPercent: 0,
      postgresCpuPercent: 0,
    };
    return {
      results: [
        {
          name: `console: first load, cold cache (${LOADS} loads; p50 and max)`,
          result,
          target: { label: `load ≤ ${BUDGET_MS} ms, JS ≤ ${BUDGET_KB} KB gz`, met: (r) => r.maxMs <= BUDGET_MS && size.jsGzipKb <= BUDGET_KB },
          note: `${size.jsGzipKb.toFixed(1)} KB JS gz`,
        },
      ],
      notes: [sizeNote],
    };
  },
};
