import { describe, expect, it } from 'vitest';
import { firstApp } from '../first-page';

describe('firstApp', () => {
  it.each([
    { pathname: '/login', loggedIn: false, want: 'login-shell' },
    { pathname: '/login/', loggedIn: false, want: 'login-shell' },
    // A session on /login: the router's login guard sends the applicant on.
    { pathname: '/login', loggedIn: true, want: 'router' },
    { pathname: '/', loggedIn: false, want: 'router' },
    { pathname: '/setup', loggedIn: false, want: 'router' },
    { pathname: '/profile', loggedIn: true, want: 'router' },
    { pathname: '/login-help', loggedIn: false, want: 'router' },
    { pathname: '/reset', loggedIn: false, want: 'router' },
  ] as const)('$pathname, logged in: $loggedIn, starts the $want', ({ pathname, loggedIn, want }) => {
    expect(firstApp(pathname, loggedIn)).toBe(want);
  });
});
