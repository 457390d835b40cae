// After a deployment the hashed chunks of the old build are gone, so a lazy
// route fails to load. One page reload fetches the new build; remembering the
// time in sessionStorage keeps a broken deployment from reloading in a loop.

export const CHUNK_RELOAD_KEY = 'portal-chunk-reload-at';
export const CHUNK_RELOAD_INTERVAL = 60_000;

const chunkErrorPattern =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && chunkErrorPattern.test(error.message);
}

/** Reloads the page unless it was reloaded for this reason within the last 60 s; says whether it did. */
export function reloadForChunkError(now = Date.now(), reload = () => window.location.reload()): boolean {
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY)) || 0;
  } catch {
    return false;
  }
  if (last && now - last < CHUNK_RELOAD_INTERVAL) return false;
  sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  reload();
  return true;
}

/** Vite raises vite:preloadError when a chunk or its CSS cannot be loaded. */
export function installChunkReload() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunkError()) event.preventDefault();
  });
}
