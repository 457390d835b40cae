import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { setUserCacheLoader } from './lib/auth';
import { installChunkReload } from './lib/chunk-reload';
import { setLocaleCookie } from './lib/locale';
import './styles/global.css';

setLocaleCookie();
installChunkReload();
// Loaded lazily, with a login or a guarded page: TanStack Query stays off /login's first load.
setUserCacheLoader(() => import('./lib/current-user'));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
