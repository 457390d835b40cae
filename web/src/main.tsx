import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { installChunkReload } from './lib/chunk-reload';
import { setLocaleCookie } from './lib/locale';
import './styles/global.css';

setLocaleCookie();
installChunkReload();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
