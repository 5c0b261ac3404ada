// Writes build-info.json (commit, build date, version) beside package.json; GET /build-info serves it.
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));
let commit = process.env.SVC_COMMIT ?? 'unknown';
if (commit === 'unknown') {
  try {
    commit = execSync('git rev-parse HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {}
}
const info = { commit, build_date: new Date().toISOString(), version };
writeFileSync(new URL('build-info.json', here), `${JSON.stringify(info, null, 2)}\n`);
