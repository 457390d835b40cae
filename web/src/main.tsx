// The entry: small, so that it runs as soon as the page is parsed. It starts the app (app/boot.tsx,
// preloaded by index.html) and, on any first page but /login, the router app's code beside it rather
// than after it: the login shell (app/first-page.ts) is the only first page without it, and /login
// with a session loads it when boot asks.
if (!/^\/login\/?$/.test(window.location.pathname)) void import('./app/app').catch(() => undefined);
void import('./app/boot').then((m) => m.start());
