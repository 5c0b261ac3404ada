import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

describe('bundle', () => {
  const code = readFileSync(new URL('../dist/index.js', import.meta.url), 'utf8');

  it('stays under 8 KB gzipped', () => {
    const size = gzipSync(code).length;
    console.log(`@svc/sdk-browser: ${code.length} bytes, ${size} bytes gzipped`);
    expect(size).toBeLessThan(8 * 1024);
  });

  it('uses no Node built-ins', () => {
    expect(code).not.toMatch(/from\s*["']node:|require\(["'](fs|http|https|crypto|buffer|events)["']\)/);
  });
});
