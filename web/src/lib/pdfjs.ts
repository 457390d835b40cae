// pdf.js, loaded on first use (it is large) with its worker: the fillable forms' preview and the
// report viewer draw PDFs with it.
type PdfJs = typeof import('pdfjs-dist');
export type { PdfJs };

let pdfjsLoading: Promise<PdfJs> | null = null;

export function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= import('pdfjs-dist').then((pdfjs) => {
    // Vite emits the worker as a file of its own and gives its address here.
    pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();
    return pdfjs;
  });
  return pdfjsLoading;
}
