// ESLint: typed rules, strict about promises and exhaustive switches; zero warnings allowed. The
// import rules keep the shape of src/ (STYLE.md): no import cycle, SQL in src/db only, and the
// ingest pipeline out of the request path (handlers, services, middleware never load it).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const KYSELY = { name: 'kysely', message: 'SQL lives in src/db only.' };
const INGEST = { group: ['**/ingest/*', '**/ingest/**'], message: 'The request path never loads the ingest pipeline: read through src/db, ask for loads through the job queue port (jobs/queue.ts).' };
const WORKERS = {
  group: ['**/jobs/export*', '**/jobs/session-*', '**/jobs/request-log-retention*', '**/jobs/index*'],
  message: 'The request path reaches the jobs through the JobQueue port (jobs/queue.ts) only.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'sdk/*/src/generated/**', 'sdk/*/dist/**', 'node_modules/**', 'build/**', '.data/**', '.venv/**', 'coverage/**'] },
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
      'no-restricted-imports': ['error', { paths: [KYSELY] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts.' }],
    },
  },
  {
    files: ['src/handlers/**', 'src/services/**', 'src/middleware/**', 'src/app.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [KYSELY], patterns: [INGEST, WORKERS] }] },
  },
  {
    // What a request's parameters may be (src/parameters) lies below the layers that ask it.
    files: ['src/parameters/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [KYSELY],
          patterns: [{ group: ['**/middleware/*', '**/services/*', '**/handlers/*', '**/db/*', '**/jobs/*', '**/ingest/*'], message: 'src/parameters lies below middleware, services and db.' }],
        },
      ],
    },
  },
  {
    files: ['src/db/**', 'db/migrations/**', 'test/**', 'bench/**'],
    rules: { 'no-restricted-imports': 'off' },
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
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
