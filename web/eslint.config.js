// ESLint: typescript-eslint, React hooks, jsx-a11y, and the layout rules of
// STYLE.md (bulletproof-react) that scripts/check-imports.mjs used to check:
// - a feature never imports another feature, nor the app layer;
// - shared code (components, lib, config, types, assets, locales) imports
//   neither features nor the app;
// - tests and src/testing may import anything;
// - no barrel files (index.ts), which defeat tree shaking;
// - kebab-case file and folder names;
// - no import cycle (import/no-cycle), lazy imports included: a cycle makes the
//   order modules run in depend on which one a page loads first.
// src/app/__tests__/layout-rules.test.ts runs the layout rules against fixtures.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
// Locale folders carry a BCP 47 tag (src/locales/en-US), which is not kebab-case.
const LOCALE_TAG = /^[a-z]{2,3}(-[A-Z]{2})?$/;

/** File and folder names under src/ are kebab-case; index.ts(x) barrels are not used. */
const fileNames = {
  meta: {
    type: 'problem',
    messages: {
      kebab: '{{name}}: name is not kebab-case',
      barrel: 'barrel files (index.ts) are not used',
    },
    schema: [],
  },
  create(context) {
    return {
      Program(node) {
        const path = context.filename.replaceAll('\\', '/');
        const inSrc = path.split('/src/').slice(1).join('/src/');
        if (!inSrc) return;
        const parts = inSrc.split('/');
        const file = parts.pop();
        if (/^index\.(ts|tsx)$/.test(file)) context.report({ node, messageId: 'barrel' });
        for (const [i, folder] of parts.entries()) {
          if (folder === '__tests__') continue;
          if (parts[i - 1] === 'locales' && LOCALE_TAG.test(folder)) continue;
          if (!KEBAB.test(folder)) context.report({ node, messageId: 'kebab', data: { name: folder } });
        }
        const stem = file.replace(/(\.module)?(\.test)?\.[a-z]+$/, '');
        if (!KEBAB.test(stem)) context.report({ node, messageId: 'kebab', data: { name: file } });
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'playwright-report/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // `const { secret, ...rest } = values` drops a field on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['*.{js,ts,mjs}', 'scripts/**', 'e2e/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    // CommonJS on purpose: eslint-module-utils loads resolvers with require().
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['e2e/**'],
    // Playwright reads a fixture's dependencies from its first parameter's
    // destructuring: a fixture that needs none must write `({}, use)`.
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // Not the tests: nothing imports one, so it closes no cycle, and the rule would read the whole
    // graph again from each of them (twice the lint's time). It resolves with the block below's resolver.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/testing/**'],
    plugins: { import: importPlugin },
    settings: {
      // The modules import/no-cycle follows (it reads only .js by default), parsed with the file's own parser.
      'import/extensions': ['.ts', '.tsx'],
    },
    rules: {
      // Type-only imports are left out (they vanish from the build); npm packages are not followed.
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // A refused save's state (the fields in error, the summary, the focus) has one author,
    // useFailedSave: forms outside src/lib never put the server's errors on fields themselves.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/**', '**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/lib/form-errors', '**/lib/form-errors'],
              message: 'Use useFailedSave from @/lib/failed-save: one hook keeps a refused save for every form.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: {
      'react-hooks': reactHooks,
      'jsx-a11y': jsxA11y,
      boundaries,
      layout: { rules: { 'file-names': fileNames } },
    },
    settings: {
      'import/resolver': { './scripts/eslint-resolver.cjs': {} },
      'boundaries/include': ['src/**/*'],
      // main.tsx only starts the app, which may import anything.
      'boundaries/ignore': ['src/main.tsx'],
      // Lazy imports and re-exports cross layers too.
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'boundaries/elements': [
        { type: 'app', pattern: 'src/app' },
        { type: 'feature', pattern: 'src/features/*', capture: ['name'] },
        { type: 'testing', pattern: 'src/testing' },
        // Everything else under src/ is shared.
        { type: 'shared', pattern: 'src/*' },
      ],
      'boundaries/files': [{ category: 'test', pattern: ['**/*.test.{ts,tsx}', 'src/testing/**'] }],
    },
    rules: {
      // The two rules of hooks. The plugin's other recommended rules diagnose
      // code for the React Compiler, which this app does not use.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      'layout/file-names': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'feature' } },
              disallow: { to: { element: { types: { anyOf: ['app', 'feature'] } } } },
            },
            // Within one feature, anything goes.
            {
              from: { element: { type: 'feature' } },
              allow: { dependency: { relationship: { to: 'internal' } } },
            },
            {
              from: { element: { type: 'shared' } },
              disallow: { to: { element: { types: { anyOf: ['app', 'feature'] } } } },
            },
            // Tests and the test helpers wire layers together.
            { from: { file: { categories: 'test' } }, allow: { to: { element: { type: '*' } } } },
          ],
        },
      ],
    },
  },
);
