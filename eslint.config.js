// ESLint: typed rules, strict about promises and exhaustive switches; zero warnings allowed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['generated/**', 'node_modules/**', 'build/**', '.data/**', '.venv/**', 'coverage/**'] },
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
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', message: 'SQL lives in src/db only.' }] },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts.' }],
    },
  },
  {
    files: ['src/db/**', 'db/migrations/**', 'test/**', 'bench/**'],
    rules: { 'no-restricted-imports': 'off' },
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
