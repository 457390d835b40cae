import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The Go server owns the API; during `npm run dev` Vite forwards API calls to
// a `portal serve` on the default address.
const apiTarget = process.env.PORTAL_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
    rollupOptions: {
      // Chunks are named by their hash alone: the entry lists every lazy chunk's file (for preloading),
      // and the names in that list cost /login bytes for each route the app has.
      // Style sheets the same: the entry lists each lazy chunk's CSS too.
      output: { chunkFileNames: 'assets/[hash].js', assetFileNames: 'assets/[hash][extname]' },
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
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // The journeys through several steps take 2 s alone but pass 5 s when the
    // whole suite shares two cores with lazy chunks still being transformed.
    testTimeout: 15000,
    // Like Testing Library's asyncUtilTimeout (src/testing/setup.ts): under a
    // loaded CI machine a route change can take more than the default 1 s.
    expect: { poll: { timeout: 5000 } },
  },
});
