// The report in the page, drawn by pdf.js (loaded on first use): every page as wide as the viewer
// (the screen on a phone), scrolled one after the other, with the page count and a zoom that scrolls
// inside the viewer, never the page sideways. The pictures' text alternative is the PDF itself: the
// download, which the server records as a download (the drawing as a view).
import '@/features/report/lib/messages';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { drawPdfPages } from '@/lib/pdfjs';
import { downloadReport, fetchReport, reportNameKey, type ReportKind } from '../api/report-file';
import styles from './report.module.css';

/** The zoom steps: 1 is the viewer's width. */
export const ZOOM_STEPS = [1, 1.5, 2, 3];

type Drawing = { state: 'loading' } | { state: 'drawn'; pages: number } | { state: 'failed'; error: unknown };

/** Draws the PDF's pages into `container`, each `width` CSS pixels wide; answers the page count. */
async function drawInto(container: HTMLElement, pdf: ArrayBuffer, width: number, isCurrent: () => boolean) {
  const canvases = await drawPdfPages(new Uint8Array(pdf), width, isCurrent, {
    className: styles.sheet,
    label: (n, total) => t('report.viewer.page', { n, total }),
  });
  if (isCurrent()) container.replaceChildren(...canvases);
  return canvases.length;
}

type ReportViewerProps = {
  kind: ReportKind;
  /** The name the download gets. */
  fileName: string;
  /** The server refused the report (403: the 15 minutes ran out): the page asks again. */
  onExpired: () => void;
};

export function ReportViewer({ kind, fileName, onExpired }: ReportViewerProps) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  const [drawing, setDrawing] = useState<Drawing>({ state: 'loading' });
  const [step, setStep] = useState(0);
  const [width, setWidth] = useState(0);
  const [downloading, setDownloading] = useState(false);
  const zoom = ZOOM_STEPS[step];

  // One fetch per report shown: the server records it as a view.
  useEffect(() => {
    let current = true;
    setPdf(null);
    setDrawing({ state: 'loading' });
    fetchReport(kind, 'inline')
      .then((blob) => blob.arrayBuffer())
      .then((buffer) => current && setPdf(buffer))
      .catch((error: unknown) => {
        if (!current) return;
        if ((error as { status?: number }).status === 403) onExpired();
        else setDrawing({ state: 'failed', error });
      });
    return () => {
      current = false;
    };
  }, [kind, onExpired]);

  // The viewer's width, followed when the window turns or resizes.
  useEffect(() => {
    const el = pagesRef.current?.parentElement;
    if (!el) return;
    // 600 where nothing is laid out (tests): the width of a page as pdf.js draws it at 1.
    const measure = () => setWidth(el.clientWidth || 600);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const container = pagesRef.current;
    if (!pdf || !container || width === 0) return;
    let current = true;
    // The buffer is copied: pdf.js hands the one it gets to its worker.
    drawInto(container, pdf.slice(0), Math.floor(width * zoom), () => current)
      .then((pages) => current && setDrawing({ state: 'drawn', pages }))
      .catch((error: unknown) => current && setDrawing({ state: 'failed', error }));
    return () => {
      current = false;
    };
  }, [pdf, width, zoom]);

  const download = () => {
    setDownloading(true);
    downloadReport(kind, fileName)
      .catch((error: unknown) => {
        if ((error as { status?: number }).status === 403) onExpired();
        else notify(t('report.viewer.downloadFailed', { reason: errorMessageOf(error) }), 'error');
      })
      .finally(() => setDownloading(false));
  };

  return (
    <section className={styles.viewer} aria-labelledby="report-viewer-title">
      <h2 id="report-viewer-title" className="visually-hidden">
        {t(reportNameKey[kind])}
      </h2>
      <p className={styles.muted}>{t('report.viewer.textAlternative')}</p>
      <div className={styles.toolbar}>
        <Button onClick={download} loading={downloading}>
          {t('report.viewer.download')}
        </Button>
        <span className={styles.count} aria-live="polite">
          {drawing.state === 'drawn'
            ? drawing.pages === 1
              ? t('report.viewer.onePage')
              : t('report.viewer.pages', { count: drawing.pages })
            : null}
        </span>
        <div className={styles.zoom} role="group" aria-label={t('report.viewer.zoom')}>
          <Button variant="secondary" disabled={step === 0} onClick={() => setStep((s) => s - 1)}>
            {t('report.viewer.zoomOut')}
          </Button>
          <span aria-live="polite">{t('report.viewer.zoomLevel', { percent: Math.round(zoom * 100) })}</span>
          <Button variant="secondary" disabled={step === ZOOM_STEPS.length - 1} onClick={() => setStep((s) => s + 1)}>
            {t('report.viewer.zoomIn')}
          </Button>
        </div>
      </div>
      {drawing.state === 'loading' ? <p className={styles.muted}>{t('report.viewer.drawing')}</p> : null}
      {drawing.state === 'failed' ? (
        <Alert tone="warning">
          <p>{t('report.viewer.drawFailed')}</p>
        </Alert>
      ) : null}
      {/* Scrolls both ways inside itself when zoomed; focusable, so the arrow keys scroll it. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className={styles.scroll} role="region" tabIndex={0} aria-label={t('report.viewer.pagesRegion')}>
        <div ref={pagesRef} className={styles.pages} />
      </div>
    </section>
  );
}
