// Imported by ./first, and imports only a type from it: no cycle, types vanish from the build.
import type { Count } from './first';

export const third = (): Count => 3;
