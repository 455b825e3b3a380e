// The layer check, `npm run lint:layers` (docs/architecture.md, "Layers"). The imports that break
// it today are in .dependency-cruiser-known-violations.json, a list that may only shrink.

/** The folders and top-level files of `src/`, lowest first; each imports only earlier ones. */
const LAYERS = [
  // foundation
  'common',
  'config',
  'errors',
  // telemetry
  'observability',
  'logging',
  // protocol core
  'session',
  'json-rpc',
  'lifecycle',
  // control around the calls
  'health',
  'ledger',
  'governance',
  'admin',
  // MCP features
  'tools',
  'tasks',
  'resources',
  'prompts',
  'subscriptions',
  // the public API for capability modules
  'index.ts',
  // what brings tools, prompts and resources in
  'capabilities',
  'upstreams',
  // operations
  'alerts',
  // surfaces and entry points
  'transport',
  'app.module.ts',
  'bootstrap',
  'cli',
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A folder matches its files; a top-level file (`app.module.ts`) matches itself. */
const pathOf = (entry) => `^src/${escape(entry)}${entry.endsWith('.ts') ? '$' : '/'}`;
const anyOf = (entries) => entries.map(pathOf).join('|');

const upwardRules = LAYERS.slice(0, -1).map((entry, index) => ({
  name: `no-upward-from-${entry}`,
  severity: 'error',
  comment:
    `${entry} is layer ${index + 1} of ${LAYERS.length}: it may import ` +
    (index === 0 ? 'nothing else under src/' : `only ${LAYERS.slice(0, index).join(', ')}`) +
    ' (docs/architecture.md, "Layers").',
  from: { path: pathOf(entry) },
  to: { path: anyOf(LAYERS.slice(index + 1)) },
}));

const notInLayers = {
  name: 'not-in-layers',
  severity: 'error',
  comment:
    'Every folder and top-level file of src/ has a place in LAYERS (.dependency-cruiser.cjs) ' +
    'and a row in docs/architecture.md, "Layers".',
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upwardRules,
    { ...notInLayers, from: { path: '^src/', pathNot: anyOf(LAYERS) }, to: {} },
    { ...notInLayers, from: {}, to: { path: '^src/', pathNot: anyOf(LAYERS) } },
    {
      name: 'no-circular',
      severity: 'error',
      // Between folders the order already forbids a cycle: it would need an upward import.
      comment: 'These files import each other in a ring.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Unit specs, their fixtures and the end-to-end suites may reach across layers.
    exclude: { path: ['\\.spec\\.ts$', '\\.contract\\.ts$', '^src/.+/testing/', '^test/'] },
    doNotFollow: { path: ['node_modules'] },
    // Type-only imports count: they couple the folders as much as the others.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
