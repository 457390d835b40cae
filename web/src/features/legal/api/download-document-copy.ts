import type { DocumentContent } from './get-document-content';
import { saveFile } from '@/lib/download';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A copy of a notice as the applicant reads it before signing (the checkbox
 * says they received one): a standalone HTML file any browser opens and prints.
 */
export function documentCopyHtml(content: DocumentContent): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(content.title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style>',
    '</head>',
    // The server sanitized the content (no scripts, handlers or external resources).
    `<body>${content.content}<p><small>Version ${content.version}</small></p></body>`,
    '</html>',
  ].join('\n');
}

export function downloadDocumentCopy(content: DocumentContent, filename: string) {
  saveFile(new Blob([documentCopyHtml(content)], { type: 'text/html;charset=utf-8' }), filename);
}
