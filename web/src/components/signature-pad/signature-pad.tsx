// A signature: drawn with mouse, touch or pen (signature_pad, loaded only
// here), or typed for people who cannot draw; both give a PNG data URL.
import { useEffect, useId, useRef, useState } from 'react';
import type SignaturePadType from 'signature_pad';
import { Button } from '@/components/ui/button';
import styles from './signature-pad.module.css';

type SignaturePadProps = {
  label: string;
  /** Prefills the typed signature. */
  name?: string;
  error?: string;
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

export function SignaturePad({ label, name = '', error, onChange }: SignaturePadProps) {
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const [typed, setTyped] = useState(name);
  const [ready, setReady] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePadType | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const id = useId();

  useEffect(() => {
    if (mode !== 'draw') return;
    let disposed = false;
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The CSS size the drawing's points were made at.
    let drawnAt = { width: 0, height: 0 };
    const resize = () => {
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      const ratio = padPixelRatio(window.devicePixelRatio);
      // Hidden (no size), or a resize that left the canvas as it was (a phone's
      // toolbar collapsing changes only the window's height): nothing to do.
      if (!width || !height) return;
      if (width === drawnAt.width && height === drawnAt.height && canvas.width === Math.floor(width * ratio)) return;
      const pad = padRef.current;
      // Setting the canvas size wipes it; the points survive and are drawn
      // again, scaled to the new size and kept in proportion.
      const strokes = pad?.toData() ?? [];
      canvas.width = width * ratio;
      canvas.height = height * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      const scale = drawnAt.width ? Math.min(width / drawnAt.width, height / drawnAt.height) : 1;
      drawnAt = { width, height };
      if (!pad) return;
      pad.clear();
      if (strokes.length === 0) return;
      pad.fromData(strokes.map((stroke) => ({ ...stroke, points: stroke.points.map((p) => ({ ...p, x: p.x * scale, y: p.y * scale })) })));
      onChangeRef.current(pad.toDataURL('image/png'));
    };
    void import('signature_pad').then(({ default: SignaturePadClass }) => {
      if (disposed) return;
      const pad = new SignaturePadClass(canvas, { backgroundColor: 'rgb(255, 255, 255)' });
      pad.addEventListener('endStroke', () => onChangeRef.current(pad.isEmpty() ? '' : pad.toDataURL('image/png')));
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

  const switchTo = (next: 'draw' | 'type') => {
    setMode(next);
    onChange(next === 'type' && typed.trim() ? typedSignaturePNG(typed.trim()) : '');
  };

  return (
    <fieldset className={styles.field} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={styles.legend}>{label}</legend>
      {mode === 'draw' ? (
        <>
          <canvas ref={canvasRef} className={styles.canvas} data-ready={ready} role="img" aria-label="Signature drawing area: sign with your mouse, finger or pen" />
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => { padRef.current?.clear(); onChange(''); }}>
              Clear
            </Button>
            <Button variant="link" onClick={() => switchTo('type')}>
              Type your signature instead
            </Button>
          </div>
        </>
      ) : (
        <>
          <label className={styles.label} htmlFor={`${id}-typed`}>
            Type your full name as your signature
          </label>
          <input
            id={`${id}-typed`}
            className={styles.input}
            value={typed}
            autoComplete="name"
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
            Draw your signature instead
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
