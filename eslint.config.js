// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const ioModules = [
  'undici',
  'simple-git',
  'chokidar',
  'pino',
  'node-cron',
  'p-queue',
  'prom-client',
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'http',
  'node:http',
  'https',
  'node:https',
  'net',
  'node:net',
  'child_process',
  'node:child_process',
  'timers',
  'node:timers',
  'timers/promises',
  'node:timers/promises',
];

/** The core's import rule; `allow` lists edge modules a kind of file may still use. */
const coreImports = (allow = []) => [
  'error',
  {
    paths: ioModules.map((name) => ({
      name,
      message: 'The core (model, diff, kinds, reconcile, plan) does no I/O.',
    })),
    patterns: [
      {
        group: [
          '**/api/**',
          ...allow.map((path) => `!${path}`),
          '**/live/**',
          '**/apply/**',
          '**/source/**',
          '**/daemon/**',
          '**/emulator/**',
          '**/cli/**',
          '**/config/**',
          '**/coord/**',
          '**/pipeline/**',
          '**/export/**',
          '**/github/**',
          '**/log/**',
        ],
        message: 'The core (model, diff, kinds, reconcile, plan) imports nothing from the edges.',
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', '.test-dist/**', 'node_modules/**', 'coverage/**', 'scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver': { typescript: { project: './tsconfig.json' } },
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-console': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a union of string literals.' },
      ],
    },
  },
  {
    // The pure core: no I/O, no timers, nothing from the edges.
    files: [
      'src/model/**/*.ts',
      'src/diff/**/*.ts',
      'src/kinds/**/*.ts',
      'src/reconcile/**/*.ts',
      'src/plan/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': coreImports(),
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'No timers in the core.' },
        { name: 'setInterval', message: 'No timers in the core.' },
        { name: 'fetch', message: 'No I/O in the core.' },
        { name: 'process', message: 'No process access in the core.' },
      ],
    },
  },
  {
    // Tests beside the core may build capabilities (a pure table) the way a command does.
    files: [
      'src/model/**/*.test.ts',
      'src/diff/**/*.test.ts',
      'src/reconcile/**/*.test.ts',
      'src/plan/**/*.test.ts',
    ],
    rules: { 'no-restricted-imports': coreImports(['**/api/capabilities.js']) },
  },
  {
    // A kind's tests hold it against the config schema and the reference it generates (docs/).
    files: ['src/kinds/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests read untyped JSON answers of the emulator.
    files: ['test/**/*.ts', 'src/**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/cli/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
