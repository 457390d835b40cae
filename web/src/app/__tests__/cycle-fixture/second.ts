/* eslint-disable import/no-cycle -- a cycle on purpose, for layout-rules.test.ts, which lints without this comment */
// Second of two modules that import each other: a lazy import closes a cycle too.
export const second = () => 2;

export const later = () => import('./first');
