// GOV.UK's date input: a fieldset whose legend is the question, a hint with an
// example, and a text box per part (day, month, year; month and year for a
// history period), numeric keypad on phones, no picker. The form keeps one
// value as the API writes it ("yyyy-mm-dd", "yyyy-mm"; lib/date-parts.ts).
// An error marks only the parts at fault, and the error summary's link
// (lib/form-errors.ts) goes to the first of them: the part marked
// data-focus-target in the fieldset named data-field.
import '@/lib/date-messages';
import { useCallback, useId, useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import {
  joinDate,
  PART_LABELS,
  partsInError,
  partsOf,
  splitDate,
  type DateKind,
  type DatePart,
  type DateTexts,
} from '@/lib/date-parts';
import { t } from '@/lib/i18n';
import { FieldError, FieldHint, fieldStyles, isRequired, OptionalMarker } from './field';
import styles from './date-field.module.css';

export type DateFieldProps = Partial<UseFormRegisterReturn> & {
  label: ReactNode;
  /** 'month' for a period of a history: month and year only. */
  kind?: DateKind;
  /** Said after the example ("For example, 27 3 1990"), which every date field shows. */
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  /** "(optional)" after the legend, as every field says it (field.tsx). */
  optional?: boolean;
  /** "bday" for a date of birth: each box gets bday-day, bday-month, bday-year. */
  autoComplete?: 'bday';
  /** For use without react-hook-form (the /ui gallery). */
  defaultValue?: string;
  id?: string;
  className?: string;
};

const WIDTH: Record<DatePart, string> = { day: styles.two, month: styles.two, year: styles.four };

/**
 * What react-hook-form's register() takes as the field's element: it writes the form's value into
 * `value` (defaults, reset, a row added with its months), reads it back, and focuses the field.
 */
type FieldHandle = { name: string; value: string; focus: () => void };

export function DateField({
  label,
  kind = 'date',
  hint,
  error,
  required,
  optional,
  autoComplete,
  defaultValue = '',
  id,
  className,
  name = '',
  onChange,
  onBlur,
  ref,
  disabled,
}: DateFieldProps) {
  const generated = useId();
  const base = id ?? generated;
  const [texts, setTexts] = useState<DateTexts>(() => splitDate(defaultValue, kind));
  const textsRef = useRef(texts);
  textsRef.current = texts;
  const fieldsetRef = useRef<HTMLFieldSetElement>(null);

  const value = joinDate(texts, kind);
  const parts = partsOf(kind);
  const marked = error ? partsInError(value, kind) : [];
  const target = partsInError(value, kind)[0];

  const focusTarget = useCallback(() => {
    fieldsetRef.current?.querySelector<HTMLInputElement>('[data-focus-target]')?.focus();
  }, []);
  // One handle for the life of the field: register() re-registers only when it changes.
  const handle = useRef<FieldHandle | null>(null);
  handle.current ??= {
    name,
    get value() {
      return joinDate(textsRef.current, kind);
    },
    set value(next: string) {
      // The value the boxes already make keeps the boxes as typed ("3", not "03").
      if (next !== joinDate(textsRef.current, kind)) setTexts(splitDate(next ?? '', kind));
    },
    focus: focusTarget,
  };
  handle.current.name = name;
  // Before paint: the saved value is in the boxes on the first frame the applicant sees.
  useLayoutEffect(() => {
    if (!ref) return;
    if (typeof ref === 'function') {
      ref(handle.current as unknown as HTMLInputElement);
      return () => ref(null);
    }
    (ref as { current: unknown }).current = handle.current;
  }, [ref]);

  function change(part: DatePart, text: string) {
    const next = { ...textsRef.current, [part]: text };
    textsRef.current = next;
    setTexts(next);
    void onChange?.({ target: { name, value: joinDate(next, kind) }, type: 'change' });
  }

  function blur(event: FocusEvent<HTMLFieldSetElement>) {
    // Leaving one box for the next is still typing the date: checked once focus leaves them all.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    void onBlur?.({ target: { name, value: joinDate(textsRef.current, kind) }, type: 'blur' });
  }

  const hintId = `${base}-hint`;
  const errorId = `${base}-error`;
  const describedBy = [error ? errorId : '', hintId].join(' ').trim();
  const example = kind === 'date' ? t('date.hint') : t('date.monthHint');
  return (
    <fieldset
      ref={fieldsetRef}
      className={[styles.date, className ?? ''].filter(Boolean).join(' ')}
      data-field={name || undefined}
      aria-describedby={describedBy}
      onBlur={blur}
    >
      <legend className={styles.legend}>
        {label}
        {optional ? <OptionalMarker /> : null}
      </legend>
      <FieldHint id={hintId}>{hint ? [hint, ' ', example] : example}</FieldHint>
      <FieldError id={errorId}>{error}</FieldError>
      <div className={styles.parts}>
        {parts.map((part) => {
          const partId = `${base}-${part}`;
          return (
            <div key={part} className={styles.part}>
              <label className={styles.partLabel} htmlFor={partId}>
                {t(PART_LABELS[part])}
              </label>
              <input
                id={partId}
                name={name ? `${name}-${part}` : undefined}
                className={[fieldStyles.control, WIDTH[part]].join(' ')}
                inputMode="numeric"
                autoComplete={autoComplete ? `${autoComplete}-${part}` : 'off'}
                spellCheck={false}
                maxLength={part === 'year' ? 4 : 2}
                value={texts[part]}
                disabled={disabled}
                aria-invalid={marked.includes(part) || undefined}
                aria-required={isRequired({ required, optional }, { disabled })}
                data-focus-target={part === target || undefined}
                // The parts are written as the API writes the date, joined by "-": a "-" typed in a box would split it.
                onChange={(e) => change(part, e.target.value.replace(/[-\s]/g, ''))}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
