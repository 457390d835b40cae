/* eslint-disable import/no-cycle -- a cycle on purpose, for layout-rules.test.ts, which lints without this comment */
// First of two modules that import each other: this one statically, the second lazily.
import { second } from './second';
import { third } from './types-only';

export type Count = number;

export const first = (): Count => second() + third();
