// A legal document is shown inside a page that has headings of its own: its
// headings move down below the page's, so the outline reads page, step, then
// the document's sections (WCAG 1.3.1), and its title is not larger than the
// step's.

/**
 * Returns the document's HTML with each heading `by` levels lower (h1 -> h4
 * with 3), at most h6. Only the digit of a heading's tag name changes: the
 * server's sanitized HTML stays as sanitized as it was.
 */
export function headingsBelow(html: string, by: number): string {
  return html.replace(
    /<(\/?)h([1-6])(?=[\s>/])/gi,
    (_, close: string, level: string) => `<${close}h${Math.min(6, Number(level) + by)}`,
  );
}
