// pdf.js, loaded on first use (it is large) with its worker: the fillable forms' preview and the
// report viewer draw PDFs with it.
type PdfJs = typeof import('pdfjs-dist');

let pdfjsLoading: Promise<PdfJs> | null = null;

export function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= import('pdfjs-dist').then((pdfjs) => {
    // Vite emits the worker as a file of its own and gives its address here.
    pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();
    return pdfjs;
  });
  return pdfjsLoading;
}

export type PageCanvas = {
  /** The canvases' class (the feature's look). */
  className: string;
  /** Each canvas's accessible name ("Page 1 of 3"). */
  label: (n: number, total: number) => string;
};

/**
 * Draws `pdf` into fresh canvases, each `width` CSS pixels wide (sharp at the screen's pixel ratio),
 * stopping when `isCurrent` turns false. The fields' appearances and annotations are drawn on the
 * canvas too, not left to an HTML layer.
 */
export async function drawPdfPages(pdf: Uint8Array, width: number, isCurrent: () => boolean, look: PageCanvas) {
  const pdfjs = await loadPdfJs();
  // No eval and no WebAssembly: the portal's Content-Security-Policy allows neither, and PDFs need neither.
  const doc = await pdfjs.getDocument({ data: pdf, isEvalSupported: false, useWasm: false }).promise;
  try {
    const canvases: HTMLCanvasElement[] = [];
    for (let n = 1; n <= doc.numPages && isCurrent(); n++) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (width / base.width) * ratio });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${width}px`;
      canvas.className = look.className;
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', look.label(n, doc.numPages));
      await page.render({ canvas, viewport, annotationMode: pdfjs.AnnotationMode.ENABLE }).promise;
      canvases.push(canvas);
    }
    return canvases;
  } finally {
    void doc.destroy();
  }
}
