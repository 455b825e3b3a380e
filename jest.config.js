// Nest 12 packages are ES modules only; Jest's loader cannot require them on Node 20,
// so @swc/jest transforms them (and their ESM-only dependencies) to CommonJS. The
// OpenTelemetry exporter loads `http` with import(), which Jest's VM refuses without
// --experimental-vm-modules; transformed, that import is a require.
const esmPackages = [
  '@opentelemetry',
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  'uint8array-extras',
  '@tokenizer',
  '@willsoto',
  'jose',
];

/** @type {import('jest').Config} */
module.exports = {
  // Node's environment, plus a check that each test file stops every process it started.
  testEnvironment: '<rootDir>/test/support/process-leak.environment.ts',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '\\.(spec|e2e-spec)\\.ts$',
  transform: {
    '^.+\\.(t|j)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  testTimeout: 30000,
  testSequencer: '<rootDir>/test/support/end-to-end-first.sequencer.js',
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};
