import { describe, expect, it } from 'vitest';
import { headingsBelow } from '@/lib/document-html';

describe('headingsBelow', () => {
  it.each([
    ['moves each heading down by the levels given', '<h1>T</h1><h2>S</h2>', 3, '<h4>T</h4><h5>S</h5>'],
    ['stops at h6', '<h3>a</h3><h5>b</h5>', 3, '<h6>a</h6><h6>b</h6>'],
    [
      'leaves other tags and text alone',
      '<p>h1 <strong>hr</strong></p><hr><header>x</header>',
      2,
      '<p>h1 <strong>hr</strong></p><hr><header>x</header>',
    ],
    ['keeps attributes and reads upper-case tags', '<H2 id="a">x</H2>', 1, '<h3 id="a">x</h3>'],
    ['changes nothing by 0', '<h1>T</h1>', 0, '<h1>T</h1>'],
  ])('%s', (_, html, by, want) => {
    expect(headingsBelow(html, by)).toBe(want);
  });
});
