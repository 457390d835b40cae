// Resolves the app's "@/..." alias (tsconfig paths, vite.config.ts) for
// eslint-plugin-boundaries, and everything else with the Node resolver it
// brings. eslint-import-resolver-typescript would do the same but needs
// platform binaries (unrs-resolver) that `npm ci` must find for every platform.
const { existsSync, statSync } = require('node:fs');
const { join } = require('node:path');
const node = require('eslint-import-resolver-node');

const src = join(__dirname, '..', 'src');
const contract = join(__dirname, '..', '..', 'internal', 'portal', 'contract');
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.json', '/index.ts', '/index.tsx'];

module.exports = {
  interfaceVersion: 2,
  resolve(source, file, config) {
    if (source.startsWith('@contract/')) {
      const path = join(contract, source.slice('@contract/'.length));
      return existsSync(path) && statSync(path).isFile() ? { found: true, path } : { found: false };
    }
    if (!source.startsWith('@/'))
      return node.resolve(source, file, { ...config, extensions: ['.ts', '.tsx', '.js', '.json'] });
    const base = join(src, source.slice(2).split('?')[0]);
    for (const ext of EXTENSIONS) {
      const path = base + ext;
      if (existsSync(path) && statSync(path).isFile()) return { found: true, path };
    }
    return { found: false };
  },
};
