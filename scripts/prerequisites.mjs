// Before any suite runs: the Debian packages that the tests use are there, or are installed now (as root, with
// apt-get, once and quietly), or the run stops at once with one line saying what is missing and how to install it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingPackages, optedOut, SUITES } from './test-suites.mjs';

let missing;
try {
  missing = missingPackages();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
if (missing.length === 0) process.exit(0);

const needing = Object.entries(SUITES)
  .filter(([name, suite]) => !optedOut().includes(name) && suite.needs.some((n) => missing.includes(n.debian)))
  .map(([name]) => name);
const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    `The tests need Debian packages that are missing: ${missing.join(' ')}. Install them with: ` +
      `sudo apt-get install -y ${missing.join(' ')} (or leave their suites out: SVC_TEST_SKIP=${needing.join(',')})`,
  );
  process.exit(1);
}

console.log(`Installing the Debian packages the tests use: ${missing.join(' ')}`);
const log = join(mkdtempSync(join(tmpdir(), 'svc-apt-')), 'apt.log');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const apt = (args) => spawnSync('sh', ['-c', `apt-get ${args} >>${log} 2>&1`], { env, stdio: 'inherit' }).status;
// An install without an update first fails on a fresh machine, whose package lists are empty or stale.
const status = apt('update -qq') || apt(`install -y -qq -o Dpkg::Use-Pty=0 ${missing.join(' ')}`);
const still = missingPackages();
if (status !== 0 || still.length > 0) {
  console.error(readFileSync(log, 'utf8').split('\n').slice(-30).join('\n'));
  console.error(`Installing ${missing.join(' ')} failed (apt-get's output above): install them by hand, or leave their suites out with SVC_TEST_SKIP.`);
  process.exit(1);
}
