// A live picture of the filled form: the template filled with the answers so
// far (pdf-lib) and drawn page by page on canvases by pdf.js, again ~400 ms
// after the last change. pdf.js and its worker load here, on first use.
import '@/features/pdf-forms/lib/messages';
import { useEffect, useId, useRef, useState } from 'react';
import { t } from '@/lib/i18n';
import { fillPdf, type PdfFieldValue } from '../lib/pdf-fields';
import styles from './pdf-forms.module.css';

export const PREVIEW_DEBOUNCE_MS = 400;

type PdfJs = typeof import('pdfjs-dist');
let pdfjsLoading: Promise<PdfJs> | null = null;

function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= import('pdfjs-dist').then((pdfjs) => {
    // Vite emits the worker as a file of its own and gives its address here.
    pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();
    return pdfjs;
  });
  return pdfjsLoading;
}

/** Draws `pdf` into fresh canvases as wide as `width` CSS pixels. */
async function drawPages(pdfjs: PdfJs, pdf: Uint8Array, width: number, isCurrent: () => boolean) {
  // No eval and no WebAssembly: the portal's Content-Security-Policy allows neither, and forms need neither.
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
      canvas.className = styles.previewPage;
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', t('forms.preview.page', { n, total: doc.numPages }));
      // ENABLE: the fields' appearances (the answers) are drawn on the canvas too, not left to an HTML layer.
      await page.render({ canvas, viewport, annotationMode: pdfjs.AnnotationMode.ENABLE }).promise;
      canvases.push(canvas);
    }
    return canvases;
  } finally {
    void doc.destroy();
  }
}

type PdfPreviewProps = {
  template: ArrayBuffer;
  /** The answers by PDF field name. */
  values: Record<string, PdfFieldValue>;
};

export function PdfPreview({ template, values }: PdfPreviewProps) {
  const headingId = useId();
  const explainId = useId();
  const pagesRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  // The answers as one string: the effect runs again only when one of them changed.
  const key = JSON.stringify(values);

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      const container = pagesRef.current;
      if (!container) return;
      const answers = JSON.parse(key) as Record<string, PdfFieldValue>;
      Promise.all([loadPdfJs(), fillPdf(template, answers)])
        .then(([pdfjs, pdf]) => drawPages(pdfjs, pdf, container.clientWidth || 600, () => current))
        .then((canvases) => {
          if (!current) return;
          container.replaceChildren(...canvases);
          setState('drawn');
        })
        .catch(() => {
          if (current) setState('failed');
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [template, key]);

  return (
    <section className={styles.preview} aria-labelledby={headingId} aria-describedby={explainId}>
      <h2 id={headingId} className={styles.previewTitle}>
        {t('forms.preview.title')}
      </h2>
      <p id={explainId} className="visually-hidden">
        {t('forms.preview.explain')}
      </p>
      {state === 'failed' ? <p className={styles.muted}>{t('forms.preview.failed')}</p> : null}
      {/* Only before the first picture: later drawings replace it quietly, not announced at every key. */}
      {state === 'drawing' ? <p className={styles.muted}>{t('forms.preview.loading')}</p> : null}
      <div ref={pagesRef} className={styles.previewPages} />
    </section>
  );
}
