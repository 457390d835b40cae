// A live picture of the filled form: the template filled with the answers so
// far (pdf-lib) and drawn page by page on canvases by pdf.js, again shortly
// after each change. pdf.js and its worker load here, on first use. "View full
// screen" opens the same picture in a dialog as wide as the screen, with zoom,
// so it can be read on a phone.
import '@/features/pdf-forms/lib/messages';
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { t } from '@/lib/i18n';
import { drawPdfPages, loadPdfJs } from '@/lib/pdfjs';
import { fillPdf, type PdfFieldValue } from '../lib/pdf-fields';
import styles from './pdf-forms.module.css';

const PREVIEW_DEBOUNCE_MS = 300;

/** The full-screen preview's zoom steps: 1 is the window's width. */
const ZOOM_STEPS = [1, 1.5, 2, 3];

type PdfPagesProps = {
  template: ArrayBuffer;
  /** The answers by PDF field name. */
  values: Record<string, PdfFieldValue>;
  /** How many times the container's width the pages are drawn (the full-screen zoom). */
  zoom?: number;
  className?: string;
};

/**
 * The pages of the filled form. One drawing at a time: what changes meanwhile is drawn as soon as it
 * ends (the newest answers only), so a slow drawing never holds the picture back for good, and each new
 * picture replaces the last in one step, without a blank in between.
 */
function PdfPages({ template, values, zoom = 1, className }: PdfPagesProps) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  // The answers as one string: a drawing is wanted again only when one of them changed.
  const key = JSON.stringify(values);
  const wanted = useRef({ key, zoom });
  const drawn = useRef<{ key: string; zoom: number } | null>(null);
  const busy = useRef(false);
  const mounted = useRef(false);

  const draw = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      while (mounted.current) {
        const target = wanted.current;
        const container = pagesRef.current;
        if (!container || (drawn.current?.key === target.key && drawn.current.zoom === target.zoom)) break;
        const width = (container.clientWidth || 600) * target.zoom;
        const answers = JSON.parse(target.key) as Record<string, PdfFieldValue>;
        // pdf.js loads while the form is filled.
        const [, pdf] = await Promise.all([loadPdfJs(), fillPdf(template, answers)]);
        const canvases = await drawPdfPages(pdf, width, () => mounted.current, {
          className: styles.previewPage,
          label: (n, total) => t('forms.preview.page', { n, total }),
        });
        if (!mounted.current) break;
        container.replaceChildren(...canvases);
        drawn.current = target;
        setState('drawn');
      }
    } catch {
      if (mounted.current) setState('failed');
    } finally {
      busy.current = false;
    }
  }, [template]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    wanted.current = { key, zoom };
    const timer = setTimeout(() => void draw(), PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, zoom, draw]);

  return (
    <>
      {state === 'failed' ? <p className={styles.muted}>{t('forms.preview.failed')}</p> : null}
      {/* Only before the first picture: later drawings replace it quietly, not announced at every key. */}
      {state === 'drawing' ? <p className={styles.muted}>{t('forms.preview.loading')}</p> : null}
      <div ref={pagesRef} className={className} />
    </>
  );
}

type PdfPreviewProps = {
  template: ArrayBuffer;
  /** The answers by PDF field name. */
  values: Record<string, PdfFieldValue>;
  /** The form's title, which the full-screen view is named after. */
  title: string;
};

export function PdfPreview({ template, values, title }: PdfPreviewProps) {
  const headingId = useId();
  const explainId = useId();
  const [fullScreen, setFullScreen] = useState(false);
  const openRef = useRef<HTMLButtonElement>(null);

  return (
    <section className={styles.preview} aria-labelledby={headingId} aria-describedby={explainId}>
      <div className={styles.previewHead}>
        <h2 id={headingId} className={styles.previewTitle}>
          {t('forms.preview.title')}
        </h2>
        <Button ref={openRef} variant="secondary" onClick={() => setFullScreen(true)}>
          {t('forms.preview.fullScreen')}
        </Button>
      </div>
      <p id={explainId} className="visually-hidden">
        {t('forms.preview.explain')}
      </p>
      <PdfPages template={template} values={values} className={styles.previewPages} />
      {fullScreen ? (
        <FullScreenPreview
          template={template}
          values={values}
          title={title}
          onClose={() => setFullScreen(false)}
          returnFocusTo={openRef}
        />
      ) : null}
    </section>
  );
}

function FullScreenPreview({
  template,
  values,
  title,
  onClose,
  returnFocusTo,
}: PdfPreviewProps & { onClose: () => void; returnFocusTo: RefObject<HTMLButtonElement | null> }) {
  const [step, setStep] = useState(0);
  const zoom = ZOOM_STEPS[step];
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      placement="full"
      title={t('forms.preview.fullScreenTitle', { title })}
      closeLabel={t('forms.preview.close')}
      returnFocusTo={returnFocusTo}
    >
      <div className={styles.zoom} role="group" aria-label={t('forms.preview.zoom')}>
        <Button variant="secondary" disabled={step === 0} onClick={() => setStep((s) => s - 1)}>
          {t('forms.preview.zoomOut')}
        </Button>
        <span aria-live="polite">{t('forms.preview.zoomLevel', { percent: Math.round(zoom * 100) })}</span>
        <Button variant="secondary" disabled={step === ZOOM_STEPS.length - 1} onClick={() => setStep((s) => s + 1)}>
          {t('forms.preview.zoomIn')}
        </Button>
      </div>
      {/* Scrolls both ways inside the dialog when zoomed; a pinch zooms it further. Focusable, so that the
          arrow keys scroll it (it holds nothing else to focus). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className={styles.fullScreenScroll} role="region" tabIndex={0} aria-label={t('forms.preview.pages')}>
        <PdfPages template={template} values={values} zoom={zoom} className={styles.fullScreenPages} />
      </div>
    </Dialog>
  );
}
