import { readFileSync } from 'node:fs';
import { checkPackage, createPackageFromTarballData, type ResolutionKind } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { packPackages, PUBLISHED, type PublishedName, type Tarballs } from '../src/pack-packages';

// The browser SDK is an ES module for pages and bundlers; it claims neither `require` nor node10.
const RESOLUTIONS: Record<PublishedName, ResolutionKind[]> = {
  '@svc/contract': ['node10', 'node16-cjs', 'node16-esm', 'bundler'],
  '@svc/webhook-verify': ['node10', 'node16-cjs', 'node16-esm', 'bundler'],
  '@svc/sdk-node': ['node10', 'node16-cjs', 'node16-esm', 'bundler'],
  '@svc/sdk-browser': ['node16-esm', 'bundler'],
};

let tarballs: Tarballs;
beforeAll(async () => {
  tarballs = await packPackages();
});

describe.each(Object.keys(PUBLISHED) as PublishedName[])('%s, packed', (name) => {
  it('passes publint, suggestions included', async () => {
    const tarball = readFileSync(tarballs[name]);
    const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) as ArrayBuffer }, level: 'suggestion', strict: true });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
    expect(pkg).toMatchObject({ license: 'MIT' });
    // The project has no public home yet: a placeholder would send readers nowhere.
    expect(pkg).not.toHaveProperty('repository');
    expect(pkg).not.toHaveProperty('homepage');
    expect(pkg).not.toHaveProperty('bugs');
    expect(pkg.files).toContain('dist');
  });

  it('passes are-the-types-wrong under every resolution it claims', async () => {
    const result = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarballs[name]))));
    if (!result.types) throw new Error(`${name} has no types`);
    const claimed = RESOLUTIONS[name];
    const problems = result.problems
      .filter((p) => !('resolutionKind' in p) || claimed.includes(p.resolutionKind))
      .map((p) => `${p.kind} ${'entrypoint' in p ? `${p.entrypoint} (${p.resolutionKind})` : ''}`);
    expect(problems).toEqual([]);
    // Every entry point resolves to types and code, ESM and CJS alike, under each claimed resolution.
    for (const [subpath, entry] of Object.entries(result.entrypoints)) {
      for (const kind of claimed) {
        expect(entry.resolutions[kind].resolution?.fileName, `${subpath} ${kind}`).toMatch(/\.d\.c?ts$|\.json$/);
      }
    }
  });
});
