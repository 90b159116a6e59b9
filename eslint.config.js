// Lint: ESLint's and typescript-eslint's recommended rules, without type information (fast).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.tmp/',
      'node_modules/',
      'test/fixtures/',
      'examples/',
      // Project files in Strapi's CommonJS, as a new project's own (vellum new).
      'templates/',
      'docs/.vitepress/dist/',
      'docs/.vitepress/cache/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      // Kysely query builders are passed through generic helpers as `{ where: Function }`.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // `_name` marks a parameter or binding kept on purpose (tsc's noUnused* checks the rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  // TypeScript resolves names itself (ESLint's no-undef does not know type-only globals).
  { files: ['**/*.ts'], rules: { 'no-undef': 'off' } },
  // Tests read loosely typed JSON answers.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
