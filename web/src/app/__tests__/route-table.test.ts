// The app's routes and the server's 404s come from one table
// (internal/portal/contract/routes.json): the router must route exactly its
// patterns, and match the same paths the server's IsAppPath matches (the
// cases of internal/portal/testdata/app-path-cases.json, which the Go test
// runs too).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import routeTable from '@contract/routes.json';
import { pageRoutes, routes } from '@/app/router';

type Cases = { cases: { path: string; app: boolean }[] };
const { cases } = JSON.parse(
  readFileSync(resolve(process.cwd(), '../internal/portal/testdata/app-path-cases.json'), 'utf8'),
) as Cases;

describe('the route table', () => {
  it('holds exactly the paths the router routes, each once', () => {
    const routed = pageRoutes.map((route) => route.path).sort();
    expect(routed).toEqual(Object.values(routeTable).sort());
    expect(new Set(routed).size).toBe(routed.length);
  });

  it('gives every route a title of its own (WCAG 2.4.2)', () => {
    const titles = pageRoutes.map((route) => route.title);
    expect(titles.every((title) => title.trim() !== '')).toBe(true);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it.each(cases)('$path is a page of the app: $app', ({ path, app }) => {
    const matched = matchRoutes(routes, path) ?? [];
    const page = matched[matched.length - 1]?.route.path;
    expect(page !== undefined && page !== '*').toBe(app);
  });
});
