import '@/features/legal/lib/messages';
import { saveFile } from '@/lib/download';
import { t } from '@/lib/i18n';
import { currentLocale } from '@/lib/locale';
import type { DocumentContent } from './get-document-content';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A copy of a notice as the applicant reads it before signing (the checkbox
 * says they received one): a standalone HTML file any browser opens and prints.
 */
export function documentCopyHtml(content: DocumentContent): string {
  return [
    '<!doctype html>',
    // The server sends the text in the language of the request, which is the app's.
    `<html lang="${currentLocale()}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(content.title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style>',
    '</head>',
    // The server sanitized the content (no scripts, handlers or external resources).
    `<body>${content.content}<p><small>${escapeHtml(t('legal.copy.version', { version: content.version }))}</small></p></body>`,
    '</html>',
  ].join('\n');
}

export function downloadDocumentCopy(content: DocumentContent, filename: string) {
  saveFile(new Blob([documentCopyHtml(content)], { type: 'text/html;charset=utf-8' }), filename);
}
