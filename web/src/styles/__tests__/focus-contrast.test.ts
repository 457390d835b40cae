import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// WCAG 2.2 SC 1.4.11 and 2.4.13: the focus indicator keeps 3:1 against what is next to it. Read from
// the tokens themselves, so a colour changed there is checked here.

/** The custom properties of tokens.css's :root, each var() reference resolved. */
function readTokens(css: string): Map<string, string> {
  const raw = new Map<string, string>();
  for (const match of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) {
    raw.set(match[1], match[2].trim());
  }
  const resolve = (value: string, depth = 0): string => {
    if (depth > 10) throw new Error(`var() cycle in ${value}`);
    return value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => {
      const target = raw.get(name);
      if (target === undefined) throw new Error(`unknown token ${name}`);
      return resolve(target, depth + 1);
    });
  };
  return new Map([...raw].map(([name, value]) => [name, resolve(value)]));
}

function hexToRgb(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) throw new Error(`not an opaque #rrggbb colour: ${hex}`);
  const n = parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance(hex: string) {
  const [r, g, b] = hexToRgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const tokens = readTokens(readFileSync(resolve(process.cwd(), 'src/styles/tokens.css'), 'utf8'));
const token = (name: string) => {
  const value = tokens.get(name);
  if (value === undefined) throw new Error(`missing token ${name}`);
  return value;
};

// Every background a focusable control sits on: the cards and dialogs, the page, an invalid upload zone
// and error alerts, the highlighted menu item and the dialogs' soft headers, the top bar (the surface),
// the hover of quiet buttons and the info, success and warning panels with links in them.
const lightBackgrounds = [
  '--color-surface',
  '--color-background',
  '--color-error-soft',
  '--color-primary-soft',
  '--color-secondary-50',
  '--color-info-soft',
  '--color-success-soft',
  '--color-warning-soft',
];

// The dark fills whose buttons take --color-focus-on-dark.
const darkBackgrounds = ['--color-error-strong', '--color-info-strong', '--color-success-strong'];

describe('the focus indicator', () => {
  it('is a solid outline of at least 2 px in the focus colour', () => {
    const [width, style, colour] = token('--focus-outline').split(/\s+/);
    expect(parseFloat(width)).toBeGreaterThanOrEqual(2);
    expect(style).toBe('solid');
    expect(colour).toBe(token('--color-focus'));
  });

  it.each(lightBackgrounds)('keeps 3:1 against %s', (background) => {
    expect(contrast(token('--color-focus'), token(background))).toBeGreaterThanOrEqual(3);
  });

  it.each(darkBackgrounds)('keeps 3:1 on dark fills against %s', (background) => {
    expect(contrast(token('--color-focus-on-dark'), token(background))).toBeGreaterThanOrEqual(3);
  });
});
