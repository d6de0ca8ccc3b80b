/**
 * The direction of dependencies, checked in `npm test` (npm run lint:deps).
 * The renderer runs in a browser and sees the service only through its contract's types; the
 * native drivers and the shared helpers must stay free of the service; wiring stays at the top.
 */
module.exports = {
  forbidden: [
    {
      name: 'renderer-only-contract-types',
      comment: 'The renderer may import only types from server/contract (runtime shared code lives in common/).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^server/', pathNot: '^server/contract/' },
    },
    {
      name: 'renderer-contract-types-only',
      comment: 'Even from server/contract, the renderer imports types, never runtime values.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^server/contract/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'renderer-preload-types-only',
      comment: 'The console reaches the kiosk host only through the preload bridge, whose types it may import.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^main/', pathNot: '^main/preload\\.types\\.ts$' },
    },
    {
      name: 'native-is-standalone',
      comment: 'Drivers in native/ import nothing of the service, the hosts or the front ends.',
      severity: 'error',
      from: { path: '^native/' },
      to: { path: '^(server|main|renderer)/' },
    },
    {
      name: 'server-not-hosts',
      comment: 'The service never imports the Electron host or the front ends.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(main|renderer)/' },
    },
    {
      name: 'common-is-dependency-free',
      comment: 'common/ is shared by the browser and Node: it imports only itself.',
      severity: 'error',
      from: { path: '^common/' },
      to: { pathNot: '^common/' },
    },
    {
      name: 'deploy-is-standalone',
      comment:
        "The booth's deploy program runs on the board's own Node, with no release and no package: it imports only itself, Node, common/ and the contract's types.",
      severity: 'error',
      from: { path: '^deploy/' },
      to: { pathNot: '^(deploy|common|server/contract)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'deploy-contract-types-only',
      comment: 'Even from server/contract, the deploy imports types, never runtime values.',
      severity: 'error',
      from: { path: '^deploy/' },
      to: { path: '^server/contract/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-imports-no-feature',
      comment: 'Leaf modules (errors, logger, clock, fs, util) are used by every feature and import none.',
      severity: 'error',
      from: { path: '^server/core/' },
      to: { path: '^server/', pathNot: '^server/(core|contract)/' },
    },
    {
      name: 'wiring-imported-by-nobody',
      comment: 'Composition files sit at the top: only the hosts (and their own composition chain) import them.',
      severity: 'error',
      from: { path: '^(server|native|common)/', pathNot: '^server/(index|service|app|admin\\.router)\\.ts$' },
      to: { path: '^server/(service|services|app)\\.ts$' },
    },
    {
      name: 'no-test-code-in-product',
      comment: 'Product code never imports the tests or their support.',
      severity: 'error',
      from: { path: '^(server|native|common|main|renderer|deploy)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|release|test-results|shims)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.vue', '.js', '.cts'],
    },
  },
};
