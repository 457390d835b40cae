import { createRoot } from 'react-dom/client';
import { boot } from './app/boot';
import { setUserCacheLoader } from './lib/auth';
import { installChunkReload } from './lib/chunk-reload';
import { loadCatalogue } from './lib/i18n';
import { chooseLocale, setLocaleCookie } from './lib/locale';
import './styles/global.css';

setLocaleCookie(chooseLocale());
installChunkReload();
// Loaded lazily, with a login or a guarded page: TanStack Query stays off /login's first load.
setUserCacheLoader(() => import('./lib/current-user'));

// The chosen language's catalogue first (nothing to wait for in en-US), so no page shows in two languages.
void loadCatalogue().finally(() => {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  boot((children) => root.render(children));
});
