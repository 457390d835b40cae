// Which app the first page of a visit starts (app/boot.tsx). Kept apart from React so the choice is
// tested as it is.
import { paths } from '@/config/paths';

export type FirstApp = 'login-shell' | 'router';

/**
 * The login shell (app/login-shell.tsx) when the visit starts on /login logged out: the login page
 * alone, without React Router and TanStack Query (/login's budget, scripts/check-bundle.mjs). Every
 * other first page, and /login with a session (its guard sends the applicant on, app/guards.ts),
 * starts the router app.
 */
export function firstApp(pathname: string, loggedIn: boolean): FirstApp {
  // "/login/" is /login to the router too.
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return path === paths.login.path && !loggedIn ? 'login-shell' : 'router';
}
