// A signature: drawn with mouse, touch or pen (signature_pad, loaded only
// here), or typed for people who cannot draw; both give a PNG data URL.
import { useEffect, useId, useRef, useState } from 'react';
import type SignaturePadType from 'signature_pad';
import type { PointGroup } from 'signature_pad';
import { Button } from '@/components/ui/button';
import styles from './signature-pad.module.css';
import { t } from '@/lib/i18n';

type SignaturePadProps = {
  label: string;
  hint?: string;
  error?: string;
  /** Focus the drawing area at once: the pad appeared at the applicant's request. */
  focusOnMount?: boolean;
  onChange: (dataUrl: string) => void;
};

/**
 * Device pixels per CSS pixel the pad draws at: the screen's, at most 3. A
 * 160 px tall pad at most about 770 px wide then gives at most 2310 x 480
 * pixels, within what the server accepts (2400 x 900, 1.5 million pixels);
 * zoomed-in desktops and some phones report more than 3.
 */
export function padPixelRatio(devicePixelRatio: number): number {
  return Math.min(Math.max(devicePixelRatio || 1, 1), 3);
}

export type Size = { width: number; height: number };

/**
 * Where a drawing made on a canvas of size `from` goes on one of size `to`:
 * as large as fits, in proportion, centred. At `from` itself it is where it
 * was drawn.
 */
export function fitDrawing(from: Size, to: Size): { scale: number; x: number; y: number } {
  if (!from.width || !from.height) return { scale: 1, x: 0, y: 0 };
  const scale = Math.min(to.width / from.width, to.height / from.height);
  return { scale, x: (to.width - from.width * scale) / 2, y: (to.height - from.height * scale) / 2 };
}

/** The strokes of a drawing made at `from`, placed on a canvas of size `to`. */
export function placeDrawing(strokes: PointGroup[], from: Size, to: Size): PointGroup[] {
  const { scale, x, y } = fitDrawing(from, to);
  return strokes.map((stroke) => ({
    ...stroke,
    points: stroke.points.map((p) => ({ ...p, x: x + p.x * scale, y: y + p.y * scale })),
  }));
}

/** Renders a typed name as a handwriting-style PNG. */
export function typedSignaturePNG(text: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = 600;
  canvas.height = 150;
  const ctx = canvas.getContext('2d');
  if (!ctx) return '';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111111';
  ctx.font = "italic 48px 'Brush Script MT', 'Segoe Script', cursive";
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 24, 75, 552);
  return canvas.toDataURL('image/png');
}

export function SignaturePad({ label, hint, error, focusOnMount = false, onChange }: SignaturePadProps) {
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  // Always empty at first: a signature is given, never filled in for the applicant.
  const [typed, setTyped] = useState('');
  const [ready, setReady] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const typedRef = useRef<HTMLInputElement>(null);
  const padRef = useRef<SignaturePadType | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const id = useId();

  // The drawing as it was made: its points, in the CSS pixels of the canvas
  // size it was drawn at. Taken when a stroke ends (or the pad is cleared),
  // never on a resize: every resize draws it again from here, so sizes that
  // come back give back the drawing exactly, however often the phone turns.
  const drawnRef = useRef<{ strokes: PointGroup[]; size: Size }>({ strokes: [], size: { width: 0, height: 0 } });

  useEffect(() => {
    if (mode !== 'draw') return;
    let disposed = false;
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The CSS size the canvas has now.
    let shown: Size = { width: 0, height: 0 };
    const resize = () => {
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      const ratio = padPixelRatio(window.devicePixelRatio);
      // Hidden (no size), or a resize that left the canvas as it was (a phone's
      // toolbar collapsing changes only the window's height): nothing to do.
      if (!width || !height) return;
      if (width === shown.width && height === shown.height && canvas.width === Math.floor(width * ratio)) return;
      // Setting the canvas size wipes it; the drawing is made again below.
      canvas.width = width * ratio;
      canvas.height = height * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      shown = { width, height };
      const pad = padRef.current;
      if (!pad) return;
      pad.clear();
      const drawn = drawnRef.current;
      if (drawn.strokes.length === 0) return;
      pad.fromData(placeDrawing(drawn.strokes, drawn.size, shown));
      onChangeRef.current(pad.toDataURL('image/png'));
    };
    void import('signature_pad').then(({ default: SignaturePadClass }) => {
      if (disposed) return;
      const pad = new SignaturePadClass(canvas, { backgroundColor: 'rgb(255, 255, 255)' });
      pad.addEventListener('endStroke', () => {
        drawnRef.current = { strokes: pad.toData(), size: shown };
        onChangeRef.current(pad.isEmpty() ? '' : pad.toDataURL('image/png'));
      });
      padRef.current = pad;
      resize();
      setReady(true);
    });
    window.addEventListener('resize', resize);
    return () => {
      disposed = true;
      window.removeEventListener('resize', resize);
      padRef.current?.off();
      padRef.current = null;
      setReady(false);
    };
  }, [mode]);

  // After switching between drawing and typing, focus goes to what is now
  // shown (the button pressed is gone), not to the page's body.
  const switched = useRef(focusOnMount);
  useEffect(() => {
    if (!switched.current) return;
    switched.current = false;
    if (mode === 'type') typedRef.current?.focus();
    else canvasRef.current?.focus();
  }, [mode]);

  const switchTo = (next: 'draw' | 'type') => {
    switched.current = true;
    drawnRef.current = { strokes: [], size: { width: 0, height: 0 } };
    setMode(next);
    onChange(next === 'type' && typed.trim() ? typedSignaturePNG(typed.trim()) : '');
  };

  return (
    <fieldset
      className={styles.field}
      aria-describedby={[hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
    >
      <legend className={styles.legend}>{label}</legend>
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {mode === 'draw' ? (
        <>
          <canvas
            ref={canvasRef}
            className={styles.canvas}
            data-ready={ready}
            role="img"
            tabIndex={-1}
            aria-label={t('common.signature.drawArea')}
          />
          <div className={styles.actions}>
            <Button
              variant="secondary"
              onClick={() => {
                padRef.current?.clear();
                drawnRef.current = { strokes: [], size: { width: 0, height: 0 } };
                onChange('');
              }}
            >
              {t('common.signature.clear')}
            </Button>
            <Button variant="link" onClick={() => switchTo('type')}>
              {t('common.signature.typeInstead')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <label className={styles.label} htmlFor={`${id}-typed`}>
            {t('common.signature.typedLabel')}
          </label>
          <input
            id={`${id}-typed`}
            ref={typedRef}
            className={styles.input}
            value={typed}
            // Not "name": a browser's autofill of the form's names would sign for the applicant.
            autoComplete="off"
            onChange={(e) => {
              setTyped(e.target.value);
              onChange(e.target.value.trim() ? typedSignaturePNG(e.target.value.trim()) : '');
            }}
          />
          {typed.trim() ? (
            <p className={styles.preview} aria-hidden="true">
              {typed}
            </p>
          ) : null}
          <Button variant="link" onClick={() => switchTo('draw')}>
            {t('common.signature.drawInstead')}
          </Button>
        </>
      )}
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
