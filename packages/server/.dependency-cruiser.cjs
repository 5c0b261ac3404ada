/**
 * The server's layering (docs/architecture.md), checked by `pnpm test` (`test/architecture/dependency-check.test.ts`; `deps:check` alone):
 * - core, db and jobs import no product module, nor the files that assemble the app;
 * - a module imports another only through that module's `index.ts`;
 * - a module imports only the modules listed for it below;
 * - a resource's repository is imported only from its own folder.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** The directed dependencies between products; anything not listed is refused. */
const ALLOWED = {
  access: ['streams'],
  identity: ['access', 'messaging'],
  ticketing: ['access', 'identity', 'messaging', 'payments', 'streams'],
  webhooks: ['ticketing'],
  creators: ['identity', 'streams', 'ticketing'],
  whitelabel: ['identity'],
  fanbases: ['access', 'creators', 'identity', 'messaging', 'payments', 'ticketing'],
  commerce: ['access', 'creators', 'identity', 'messaging', 'payments', 'streams', 'ticketing'],
  promoters: ['commerce', 'identity', 'payments', 'ticketing'],
};

/**
 * Files that still read another resource's repository, from before the rule: each should move to that resource's
 * services, and then leave this list. Nothing is added to it.
 */
const REPOSITORY_CROSSINGS = [
  'src/modules/streams/settings/stream-settings.service.ts',
  'src/modules/streams/playables.service.ts',
  'src/modules/streams/network/media/media-processing.ts',
];

const modulesDir = join(process.cwd(), 'src', 'modules');
const modules = readdirSync(modulesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-module',
      comment: 'core/, db/ and jobs/ are below every product: they know no module and not the app that lists them; of boot/, only the configuration.',
      severity: 'error',
      from: { path: '^src/(core|db|jobs)/' },
      to: { path: '^src/(modules/|app\\.ts$|boot/)', pathNot: '^src/boot/(config|messaging-config)\\.ts$' },
    },
    {
      name: 'module-through-index',
      comment: "A module uses another only through that module's index.ts, never its repositories or internal files.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'repository-of-own-resource',
      comment: "A resource's repository is used only by the files of its own folder; other resources go through its services.",
      severity: 'error',
      from: { path: '^(src/.+)/[^/]+$', pathNot: REPOSITORY_CROSSINGS.map((f) => `^${f.replace(/\./g, '\\.')}$`) },
      to: { path: '\\.repository\\.ts$', pathNot: '^$1/[^/]+\\.repository\\.ts$' },
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
