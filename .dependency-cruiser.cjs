// Import rules for the whole workspace, checked by `pnpm lint` (`pnpm depcruise`), failing on any error.
// Inside the server (apps/bff/src) the layers of README's "Architecture" section; across packages, what each
// package may depend on. apps/bff/test/layer-rules.test.ts breaks each rule in a copy of the tree and expects a failure.
const BFF = '^apps/bff/src/';
/** Layers that know nothing of requests or resources. */
const NEUTRAL = `${BFF}(core|lib|db|security|cache|bureau|outbox)/`;
/** Repositories, the files that hold SQL besides db/: `repo.ts` or `*-repo.ts`, in a module or a neutral layer. */
const REPO = `${BFF}.+[/-]repo\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'http-imports-no-module',
      comment: 'http/ (request plumbing) never imports a module; it reaches auth through AppContext.',
      severity: 'error',
      from: { path: `${BFF}http/` },
      to: { path: `${BFF}modules/` },
    },
    {
      name: 'neutral-layer-stays-neutral',
      comment: 'core, lib, db, security, cache, bureau and outbox import neither modules nor http/.',
      severity: 'error',
      from: { path: NEUTRAL },
      to: { path: `${BFF}(modules|http)/` },
    },
    {
      name: 'module-http-only-in-routes',
      comment:
        'Inside a module only its HTTP adapters (routes.ts, *-routes.ts) import http/: services, repos and the rest return data or throw ApiError, and http/ alone turns them into statuses, headers and cookies. What they share with http/ (the cursor codec, zod issue details, answer data marked shared) lives in core/ and security/.',
      severity: 'error',
      from: { path: `${BFF}modules/`, pathNot: `${BFF}modules/.+[/-]routes\\.ts$` },
      to: { path: `${BFF}http/` },
    },
    {
      name: 'express-only-at-the-edge',
      comment:
        "Express serves the pages and hands every request its steps: only app.ts, http/ and a module's HTTP adapters (routes.ts, *-routes.ts) import it. Everything else that answers over HTTP (a built file) takes Node's request and response.",
      severity: 'error',
      from: { path: BFF, pathNot: [`${BFF}app\\.ts$`, `${BFF}http/`, `${BFF}modules/.+[/-]routes\\.ts$`] },
      to: { path: '(^|/)(@types/)?express(/|$)' },
    },
    {
      name: 'context-imports-no-http',
      comment:
        'AppContext is what http/ reads on every request, so it imports nothing of http/: the rate limits it holds are counters (security/rate-limits.ts), and http/ decides what a request counts against.',
      severity: 'error',
      from: { path: `${BFF}context\\.ts$` },
      to: { path: `${BFF}http/` },
    },
    {
      name: 'sql-builders-only-in-repos',
      comment:
        "SQL lives in repos (repo.ts, *-repo.ts) and db/. SQL is plain strings handed to a Queryable, which an import does not show, so this rule holds what imports can: only repos and db/ import db/'s SQL builders (keyset.ts: paginated queries) and its migrations. The strings themselves are checked by apps/bff/test/layer-rules.test.ts, which reads every string literal outside repos and db/.",
      severity: 'error',
      from: { path: BFF, pathNot: [REPO, `${BFF}db/`] },
      to: { path: [`${BFF}db/keyset\\.ts$`, `${BFF}db/migrations/`] },
    },
    {
      name: 'module-through-its-service',
      comment: "A module reaches another module only through that module's public file, service.ts (types included).",
      severity: 'error',
      from: { path: `${BFF}modules/([^/]+)/` },
      to: { path: `${BFF}modules/`, pathNot: [`${BFF}modules/$1/`, `${BFF}modules/[^/]+/service\\.ts$`] },
    },
    {
      name: 'modules-reach-the-bureau-through-its-port',
      comment:
        'Modules see the bureau through bureau/provider.ts and bureau/errors.ts; its HTTP adapter (bureau/http/) is chosen by bootstrap and known to no module.',
      severity: 'error',
      from: { path: `${BFF}modules/` },
      to: { path: `${BFF}bureau/http/` },
    },
    {
      name: 'no-async-context-in-the-server',
      comment:
        "Nothing in the server reads who or when it works for from the async context (node:async_hooks: AsyncLocalStorage, AsyncResource): a request's time and the request it serves are its context's (RequestScope.ctx: `clock`, `onBehalfOf`), handed down as arguments, so what a service records or reads as now is what its caller gave it.",
      severity: 'error',
      from: { path: BFF },
      to: { dependencyTypes: ['core'], path: '^(node:)?async_hooks$' },
    },
    {
      name: 'no-cycle-between-modules',
      comment: 'No import cycle between modules (folders), even through service.ts.',
      severity: 'error',
      scope: 'folder',
      from: { path: `${BFF}modules/[^/]+/?$` },
      to: { path: `${BFF}modules/[^/]+/?$`, circular: true },
    },
    {
      name: 'contract-imports-no-app',
      comment: 'The contract is what everything derives from: it imports no app, client package, test or sample.',
      severity: 'error',
      from: { path: '^packages/contract/' },
      to: { path: '^(apps|e2e|docs)/|^packages/(sdk|react|embed)/' },
    },
    {
      name: 'client-package-imports-no-app',
      comment: 'The SDK, the React bindings and the embed script ship to partners: no app (server, widget, demo) inside.',
      severity: 'error',
      from: { path: '^packages/(sdk|react|embed)/' },
      to: { path: '^(apps|e2e|docs)/' },
    },
    {
      name: 'sdk-imports-no-ui-package',
      comment: 'The SDK sits below the React bindings and the embed script, never on them.',
      severity: 'error',
      from: { path: '^packages/sdk/' },
      to: { path: '^packages/(react|embed)/' },
    },
    {
      name: 'browser-app-imports-no-server',
      comment:
        "The widget's, the console's and the demo partner's sources reach the server over HTTP (@credit/sdk), never its code (their tests may start it).",
      severity: 'error',
      from: { path: '^apps/(widget|console|demo)/src/' },
      to: { path: '^apps/bff/' },
    },
    {
      name: 'server-imports-no-browser-source',
      comment:
        "The server serves the widget's, the console's and the embed script's built files; it never imports their browser source.",
      severity: 'error',
      from: { path: BFF },
      to: { path: '^apps/(widget|console)/src/|^packages/(react|embed)/src/' },
    },
    {
      name: 'server-source-for-bench-and-tests-only',
      comment:
        "Outside apps/bff, only the benchmarks (bench/) and tests with their helpers (e2e, test/ folders) import the server's source by path: it has no package export.",
      severity: 'error',
      from: { path: '^', pathNot: ['^apps/bff/', '^bench/', '^e2e/', '(^|/)test/'] },
      to: { path: `${BFF}` },
    },
    {
      name: 'package-reached-by-name',
      comment:
        "A package's source imports another workspace package by its name (its published entry), never by a relative path into its files.",
      severity: 'error',
      from: { path: '^(apps|packages)/([^/]+)/src/' },
      to: { dependencyTypes: ['local'], path: '^(apps|packages)/', pathNot: '^$1/$2/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-bench|dist\\.[^/]+|build|coverage)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
