import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The Go server owns the API; during `npm run dev` Vite forwards API calls to
// a `portal serve` on the default address.
const apiTarget = process.env.PORTAL_DEV_API ?? 'http://127.0.0.1:8080';

// Test files that need modules of their own: every one that replaces a module (vi.mock: in a shared
// module cache the mock would miss a module another file loaded first, or leak into the next file),
// found here so a new one cannot be forgotten; and the home page's, whose last test leaves work in
// flight that would land in the next file's app.
const srcDir = fileURLToPath(new URL('./src', import.meta.url));
const testFiles = (readdirSync(srcDir, { recursive: true }) as string[])
  .map((f) => f.replaceAll('\\', '/'))
  .filter((f) => /\.test\.tsx?$/.test(f));
const isolatedTests = [
  ...testFiles.filter((f) => readFileSync(`${srcDir}/${f}`, 'utf8').includes('vi.mock(')).map((f) => `src/${f}`),
  'src/features/home/__tests__/home.test.tsx',
];

/** The chunk of src/app/boot.tsx and its static imports (codeSplitting below). */
const BOOT_CHUNK = 'boot';

/**
 * React Router names its contexts and components for React's developer tools with statements
 * (`Form.displayName = "Form"`), and makes its components with forwardRef calls not marked pure:
 * both keep every one of them in the build, used or not: Form, fetcher forms, ScrollRestoration and
 * the code they bring. Without those names, and with forwardRef marked pure (it is), the unused ones
 * go (issue 27). The developer tools still show the functions' names.
 */
const reactRouterWithoutDisplayNames: Plugin = {
  name: 'react-router-without-display-names',
  apply: 'build',
  transform: {
    filter: { id: /node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/ },
    handler(code) {
      return code
        .replace(/^\s*[\w$]+\.displayName = "[\w.]+";$/gm, '')
        .replace(/= (React\d*)\.forwardRef\(/g, '= /* @__PURE__ */ $1.forwardRef(');
    },
  },
};

/**
 * The boot chunk (codeSplitting below: src/app/boot.tsx and what it imports statically) and its
 * style sheets in index.html, beside the small entry that imports it lazily (src/main.tsx): the
 * browser fetches them at once, with the entry, instead of after the entry has run.
 */
const preloadBootChunk: Plugin = {
  name: 'preload-boot-chunk',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle }) {
      const boot = Object.values(bundle ?? {}).find((c) => c.type === 'chunk' && c.name === BOOT_CHUNK);
      if (!boot || boot.type !== 'chunk') throw new Error(`preload-boot-chunk: no chunk named ${BOOT_CHUNK}`);
      const files = new Set<string>();
      const css = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle?.[fileName];
        if (!chunk || chunk.type !== 'chunk' || files.has(fileName)) return;
        files.add(fileName);
        for (const sheet of chunk.viteMetadata?.importedCss ?? []) css.add(sheet);
        for (const imported of chunk.imports) visit(imported);
      };
      visit(boot.fileName);
      const link = (rel: string, file: string) => ({
        tag: 'link',
        attrs: { rel, crossorigin: true, href: `/${file}` },
        injectTo: 'head' as const,
      });
      // Vite links the entry's own imports (the preload helper) already.
      const unlinked = (file: string) => !html.includes(`/${file}`);
      return [
        ...[...files].filter(unlinked).map((file) => link('modulepreload', file)),
        ...[...css].filter(unlinked).map((file) => link('stylesheet', file)),
      ];
    },
  },
};

export default defineConfig({
  plugins: [react(), reactRouterWithoutDisplayNames, preloadBootChunk],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Definitions the server and the app share (profile status ids), kept once beside the Go code.
      '@contract': fileURLToPath(new URL('../internal/portal/contract', import.meta.url)),
      // pdf-lib's one-file ES build: its default build brings pako as CommonJS, whose interop helpers
      // would then move out of the entry into a chunk of their own that /login loads too (+0.4 kB).
      'pdf-lib': fileURLToPath(new URL('./node_modules/pdf-lib/dist/pdf-lib.esm.js', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/check-bundle.mjs reads dist/.vite/manifest.json to measure what /login loads.
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    // The browsers the portal supports (ES2022) all know <link rel="modulepreload">: the polyfill
    // would only cost /login bytes.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // Chunks are named by their hash alone: the entry lists every lazy chunk's file (for preloading),
      // and the names in that list cost /login bytes for each route the app has.
      // Style sheets the same: the entry lists each lazy chunk's CSS too.
      output: {
        chunkFileNames: 'assets/[hash:7].js',
        assetFileNames: 'assets/[hash:7][extname]',
        // The app's start (src/app/boot.tsx) and everything it imports statically (the login shell, the
        // form fields, i18n, the API client) in one chunk beside the entry, which index.html preloads. Left
        // to itself, Rolldown splits what the entry shares with the lazy router app into a dozen chunks
        // of a few hundred bytes each (issue 27).
        codeSplitting: {
          groups: [
            // Vite's preload helper apart, not in the boot chunk: the entry needs it to start the others.
            { name: 'preload-helper', test: /preload-helper/, priority: 2 },
            { name: BOOT_CHUNK, test: /src\/app\/boot\.tsx$/, includeDependenciesRecursively: true, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    // The list of common passwords has one source, the server's file
    // (internal/password); the app imports it as a lazy chunk.
    fs: {
      allow: [
        fileURLToPath(new URL('.', import.meta.url)),
        fileURLToPath(new URL('../internal/password/', import.meta.url)),
        fileURLToPath(new URL('../internal/portal/contract/', import.meta.url)),
      ],
    },
    proxy: {
      '/api': apiTarget,
      '/oauth': apiTarget,
      '/healthz': apiTarget,
      '/sandbox': apiTarget,
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    restoreMocks: true,
    // The journeys through several steps take 2 s alone but pass 5 s when the
    // whole suite shares two cores with lazy chunks still being transformed.
    testTimeout: 15000,
    // Like Testing Library's asyncUtilTimeout (src/testing/setup.ts): under a
    // loaded CI machine a route change can take more than the default 1 s.
    expect: { poll: { timeout: 5000 } },
    // A fresh document and module graph per test file cost two thirds of the suite's time (a
    // jsdom and the app's imports, 73 times): the files share their worker's instead, each
    // starting from an empty document and storage (src/testing/setup.ts), except isolatedTests.
    projects: [
      {
        extends: true,
        test: { name: 'shared', isolate: false, include: ['src/**/*.test.{ts,tsx}'], exclude: isolatedTests },
      },
      { extends: true, test: { name: 'isolated', include: isolatedTests } },
    ],
  },
});
