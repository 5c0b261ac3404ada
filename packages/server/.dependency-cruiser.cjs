/**
 * The server's layering (docs/architecture.md), checked by `pnpm test` (`deps:check`):
 * - core, db and jobs import no product module, nor the files that assemble the app;
 * - a module imports another only through that module's `index.ts`;
 * - a module imports only the modules listed for it below.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** The directed dependencies between products; anything not listed is refused. */
const ALLOWED = {
  access: ['streams'],
  ticketing: ['access', 'identity', 'messaging'],
};

const modulesDir = join(process.cwd(), 'src', 'modules');
const modules = readdirSync(modulesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-module',
      comment: 'core/, db/ and jobs/ are below every product: they know no module and not the app that lists them.',
      severity: 'error',
      from: { path: '^src/(core|db|jobs)/' },
      to: { path: '^src/(modules/|app\\.ts$|server\\.ts$|context\\.ts$|main\\.ts$|cli\\.ts$)' },
    },
    {
      name: 'module-through-index',
      comment: "A module uses another only through that module's index.ts, never its repositories or internal files.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    ...modules.map((name) => ({
      name: 'module-dependency-not-allowed',
      comment: `${name} may use only: ${(ALLOWED[name] ?? []).join(', ') || 'no other module'} (.dependency-cruiser.cjs, ALLOWED).`,
      severity: 'error',
      from: { path: `^src/modules/${name}/` },
      to: { path: '^src/modules/[^/]+/', pathNot: [`^src/modules/(${[name, ...(ALLOWED[name] ?? [])].join('|')})/`] },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts'] },
  },
};
