// ESLint: typed rules, strict about promises and exhaustive switches; zero warnings allowed. The
// import rules keep the shape of src/: no import cycle, SQL in src/db only (no kysely,
// pg or pg-copy-streams import and no statement written in a string elsewhere; src/db-server, which
// runs the PostgreSQL server, may use the driver too), and the ingest pipeline out of the request
// path (handlers, services, middleware never load it).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const SQL_ONLY_IN_DB = 'SQL lives in src/db only.';
const SQL_IMPORTS = ['kysely', 'pg', 'pg-copy-streams'].map((name) => ({ name, message: SQL_ONLY_IN_DB }));
const PG_MODULES = { group: ['pg/*', 'pg-copy-streams/*'], message: SQL_ONLY_IN_DB };
/**
 * A string or template that starts as a statement does: each keyword with the words that follow
 * it in SQL (`select … from`, `insert into`, `update t set`, `listen channel`, `create table`, …),
 * in lower or upper case, so that an English sentence ("Select a date", "Update the key") is not
 * taken for one.
 */
const STATEMENT = [
  String.raw`(select|SELECT)\s+(1\b|\*|distinct\b|DISTINCT\b|[\w.]+\(|[\w."]+(\s*,\s*[\w."]+)*\s+(from|FROM)\b)`,
  String.raw`(insert|INSERT)\s+(into|INTO)\s`,
  String.raw`(update|UPDATE)\s+[\w."]+\s+(set|SET)\s`,
  String.raw`(delete|DELETE)\s+(from|FROM)\s`,
  String.raw`(listen|LISTEN|unlisten|UNLISTEN|notify|NOTIFY)\s+([\w"]+\s*([;,]|$)|$)`,
  String.raw`(create|CREATE|alter|ALTER|drop|DROP)\s+(unique\s+|UNIQUE\s+|or replace\s+|OR REPLACE\s+|temp\s+|TEMP\s+|temporary\s+|TEMPORARY\s+|unlogged\s+|UNLOGGED\s+)*(table|TABLE|index|INDEX|view|VIEW|materialized|MATERIALIZED|function|FUNCTION|trigger|TRIGGER|schema|SCHEMA|extension|EXTENSION|sequence|SEQUENCE|type|TYPE|system|SYSTEM)\s`,
  String.raw`(copy|COPY)\s+[\w."]+\s*(\(|from\b|FROM\b|to\b|TO\b)`,
  String.raw`(truncate|TRUNCATE|vacuum|VACUUM)(\s|$)`,
  String.raw`(with|WITH)\s+[\w"]+\s+(as|AS)\s*\(`,
].join('|');
const STATEMENT_MESSAGE = 'SQL lives in src/db only: write the statement in a src/db function.';
const RAW_SQL = [
  { selector: `Literal[value=/^\\s*(${STATEMENT})/]`, message: STATEMENT_MESSAGE },
  { selector: `TemplateLiteral[quasis.0.value.raw=/^\\s*(${STATEMENT})/]`, message: STATEMENT_MESSAGE },
];
/**
 * The layers of src/, lowest first, as what each may not import (type imports included): a module
 * asks the layers below it, never one above or beside it. analytics/ is pure and imports only
 * itself; api-contract/ (the OpenAPI document, the route catalog, the stream protocol's constants)
 * and parameters/ (what a request's parameters may be) sit below everything that serves; db/ and
 * db-server/ below the services; the services below the edges (handlers, middleware, streams, MCP,
 * jobs, the app and the server), reaching the jobs through their queue port only.
 */
const EDGES = [
  'handlers',
  'middleware',
  'stream',
  'mcp',
  'jobs',
  'ingest',
  'live',
  'cli',
  'app.ts',
  'server.ts',
  'cluster.ts',
  'main.ts',
  'seed.ts',
];
const LAYERS = {
  'api-contract': ['services', 'db', 'db-server', 'limits', ...EDGES],
  parameters: ['services', 'db', 'db-server', 'limits', ...EDGES],
  db: ['services', 'limits', 'parameters', ...EDGES],
  'db-server': ['db', 'services', 'limits', 'parameters', ...EDGES],
  limits: ['services', 'db', 'parameters', ...EDGES],
  services: [
    'handlers',
    'middleware',
    'stream',
    'mcp',
    'ingest',
    'live',
    'cli',
    'app.ts',
    'server.ts',
    'cluster.ts',
    'main.ts',
    { from: 'jobs', except: ['./queue.ts'] },
  ],
  middleware: ['services', 'handlers', 'stream', 'mcp', 'ingest', 'live', 'jobs', 'app.ts', 'server.ts', 'cluster.ts', 'main.ts'],
  handlers: [
    'db',
    'db-server',
    'middleware',
    'stream',
    'mcp',
    'ingest',
    'live',
    'app.ts',
    'server.ts',
    { from: 'jobs', except: ['./queue.ts'] },
  ],
};
const LAYER_ZONES = [
  { target: './src/analytics', from: './src', except: ['./analytics'], message: 'analytics/ is pure: it imports only analytics/.' },
  ...Object.entries(LAYERS).flatMap(([layer, above]) =>
    above.map((entry) => {
      const { from, except } = typeof entry === 'string' ? { from: entry, except: undefined } : entry;
      return {
        target: `./src/${layer}`,
        from: `./src/${from}`,
        ...(except ? { except } : {}),
        message: `src/${layer} lies below src/${from}: it may not import it.`,
      };
    }),
  ),
];
const INGEST = {
  group: ['**/ingest/*', '**/ingest/**'],
  message:
    'The request path never loads the ingest pipeline: read through src/db, ask for loads through the job queue port (jobs/queue.ts).',
};
const WORKERS = {
  group: ['**/jobs/export*', '**/jobs/session-*', '**/jobs/request-log-retention*', '**/jobs/index*'],
  message: 'The request path reaches the jobs through the JobQueue port (jobs/queue.ts) only.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'generated/**',
      'sdk/*/src/generated/**',
      'sdk/*/dist/**',
      'node_modules/**',
      'build/**',
      '.data/**',
      '.venv/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: SQL_IMPORTS, patterns: [PG_MODULES] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts.' }],
    },
  },
  {
    files: ['src/handlers/**', 'src/services/**', 'src/middleware/**', 'src/app.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: SQL_IMPORTS, patterns: [PG_MODULES, INGEST, WORKERS] }] },
  },
  {
    files: ['src/db/**', 'src/db-server/**', 'db/migrations/**', 'test/**', 'bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Statements written outside src/db; unit tests may name one as data (a driver error's query, say).
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/db-server/**', 'src/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RAW_SQL] },
  },
  {
    // Modules that load each other: the rule follows value imports (a type-only import is gone
    // once compiled and cannot make a module run before its dependency is ready).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }], 'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }] },
  },
  {
    files: ['src/config.ts', 'src/config.test.ts', 'test/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Published coefficients and reference values are kept at their published precision.
    files: ['src/analytics/pricing.ts', 'src/analytics/*.test.ts'],
    rules: { 'no-loss-of-precision': 'off' },
  },
  {
    // Migrations are frozen against the schema of their time, not the application's types.
    files: ['db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The SDK's command-line bridge (oads-mcp) is plain JavaScript run by Node: its settings are its environment.
    files: ['sdk/*/bin/**'],
    languageOptions: { globals: { process: 'readonly', fetch: 'readonly', URL: 'readonly' } },
    rules: { 'no-restricted-properties': 'off' },
  },
);
