import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, toOpenApi30 } from '../src/openapi';
import { ACCEPTED_WARNINGS, type AcceptedWarning } from '../openapi-lint/accepted-warnings';

const require = createRequire(import.meta.url);
const lintDir = fileURLToPath(new URL('../openapi-lint', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A server URL of the kind a deployment has (linters flag localhost and example.com).
const document31 = buildOpenApiDocument('https://api.svc.test');
const documents = { '3.1.0': document31, '3.0.3': toOpenApi30(document31) };
const files = Object.fromEntries(
  Object.entries(documents).map(([version, doc]) => {
    const file = join(dir, `openapi-${version}.json`);
    writeFileSync(file, JSON.stringify(doc, null, 2));
    return [version, file];
  }),
) as Record<keyof typeof documents, string>;

interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  where: string;
}

function redocly(file: string): Finding[] {
  const bin = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  let out: string;
  try {
    out = execFileSync(process.execPath, [bin, 'lint', file, '--config', join(lintDir, 'redocly.yaml'), '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    // Exit code 1 when there are errors; the report is on stdout all the same.
    out = (err as { stdout?: string }).stdout ?? '';
    if (!out.trim().startsWith('{')) throw err;
  }
  const report = JSON.parse(out) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  const severities: Record<string, Finding['severity']> = { error: 'error', warn: 'warning', info: 'info' };
  return report.problems.map((p) => ({ rule: p.ruleId, severity: severities[p.severity] ?? 'error', where: `${p.message} ${p.location.map((l) => l.pointer).join(' ')}` }));
}

async function spectral(file: string): Promise<Finding[]> {
  const { Spectral, Document } = require('@stoplight/spectral-core') as typeof import('@stoplight/spectral-core');
  const { oas } = require('@stoplight/spectral-rulesets') as typeof import('@stoplight/spectral-rulesets');
  const Parsers = require('@stoplight/spectral-parsers') as typeof import('@stoplight/spectral-parsers');
  const linter = new Spectral();
  linter.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = await linter.run(new Document(readFileSync(file, 'utf8'), Parsers.Json, file));
  const severities = ['error', 'warning', 'info', 'info'] as const;
  return results.map((r) => ({ rule: String(r.code), severity: severities[r.severity], where: `${r.message} ${r.path.join('.')}` }));
}

function check(linter: AcceptedWarning['linter'], findings: Finding[], used: Set<AcceptedWarning>): void {
  expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  const unexplained = findings.filter((f) => {
    if (f.severity !== 'warning') return false;
    const accepted = ACCEPTED_WARNINGS.find((a) => a.linter === linter && a.rule === f.rule && a.where.test(f.where));
    if (accepted) used.add(accepted);
    return !accepted;
  });
  expect(unexplained, 'a warning not listed in openapi-lint/accepted-warnings.ts').toEqual([]);
}

describe('the OpenAPI documents pass the linters tenants use', () => {
  const used = new Set<AcceptedWarning>();

  for (const version of ['3.1.0', '3.0.3'] as const) {
    it(`Redocly's recommended rules, ${version}: no error, only the accepted warnings`, () => {
      check('redocly', redocly(files[version]), used);
    }, 60_000);

    it(`Spectral's spectral:oas, ${version}: no error, only the accepted warnings`, async () => {
      check('spectral', await spectral(files[version]), used);
    }, 60_000);
  }

  it('every accepted warning still occurs and gives its reason', () => {
    for (const accepted of ACCEPTED_WARNINGS) {
      expect(accepted.reason.length, accepted.rule).toBeGreaterThan(40);
      expect(used.has(accepted), `${accepted.linter} ${accepted.rule} ${accepted.where} no longer occurs: remove it`).toBe(true);
    }
  });
});
