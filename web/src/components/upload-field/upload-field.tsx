// A file picker that sends what it is given (spec section 5): drop files on it or choose them (on a
// phone, take a photo), several at once. Files the server would refuse (too large, a type it does
// not take, empty) are refused here before a byte is sent; each other file gets a row with its
// progress, Cancel while it is sent, and the server's message with Retry and Remove when it fails.
// What to send a file to is the caller's (`upload`): documents use it, and the chat will.
import '@/components/upload-field/messages';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FieldHint, fieldStyles } from '@/components/ui/field';
import { Progress } from '@/components/ui/progress';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { isAbort, type UploadOptions } from '@/lib/upload';
import styles from './upload-field.module.css';
import { currentLocale } from '@/lib/locale';

/** The largest file the server takes (spec section 9: 20971520 bytes). */
export const MAX_UPLOAD_BYTES = 20971520;

/** The names the server takes (spec section 5): PDF, images, Word and Excel. */
export const ACCEPTED_EXTENSIONS = ['.pdf', '.jpg', '.jpeg', '.png', '.gif', '.doc', '.docx', '.xls', '.xlsx'];

const ACCEPTED_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/gif',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-office',
];

const ACCEPT_ATTRIBUTE = [...ACCEPTED_EXTENSIONS, ...ACCEPTED_TYPES].join(',');

const MB = 1024 * 1024;

/** A file's size as people read it: "512 bytes", "84 kB", "3.4 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes === 1) return t('upload.size.oneByte');
  if (bytes < 1024) return t('upload.size.bytes', { count: bytes });
  const [value, unit] = bytes < MB ? [bytes / 1024, 'kilobyte'] : [bytes / MB, 'megabyte'];
  return new Intl.NumberFormat(currentLocale(), {
    style: 'unit',
    unit,
    maximumFractionDigits: value < 10 ? 1 : 0,
  }).format(value);
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** Why the server would refuse the file, or null. A name without an extension is left to the server. */
export function refusalOf(file: File, maxBytes: number): string | null {
  const extension = extensionOf(file.name);
  if (extension && !ACCEPTED_EXTENSIONS.includes(extension)) return t('upload.wrongType');
  if (file.size === 0) return t('upload.empty');
  if (file.size > maxBytes) return t('upload.tooLarge', { name: file.name, limit: formatFileSize(maxBytes) });
  return null;
}

/** What the server said: the field messages of a 'validation error', else its errorMessage. */
function failureOf(error: unknown): string {
  if (error instanceof ApiError && error.errorFields.length > 0) {
    return error.errorFields.map((field) => field.message).join(' ');
  }
  return errorMessageOf(error);
}

/**
 * Whether sending the same file again may work: not after the server refused the file itself (too
 * large, a type it does not take, empty, the screening closed), only after a failure on the way (the
 * network, a busy or failing server).
 */
function retryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}

/** Sends one file; resolves with the server's answer once it has it. */
export type UploadRunner = (file: File, options: UploadOptions) => Promise<unknown>;

/** Progress is announced at each of these steps (25, 50, 75 %). */
const PROGRESS_STEP = 25;

type Row = {
  key: number;
  file: File;
  state: 'refused' | 'sending' | 'failed' | 'cancelled';
  percent: number;
  error?: string;
  /** A failure that sending again may cure: Retry is offered. */
  retryable?: boolean;
};

type UploadFieldProps = {
  /** What the files are for ("Driver's license or state ID"): the label of the picker. */
  label: string;
  upload: UploadRunner;
  /** A file the server has: its row goes, the caller shows it where sent files are listed. */
  onUploaded?: (file: File, answer: unknown) => void;
  /** The server's limit, when it says one (maxUploadBytes). */
  maxBytes?: number;
  /** Shown under the label. */
  hint?: string;
  disabled?: boolean;
  id?: string;
  /**
   * Say "{name} was sent." to screen readers. Off when the caller confirms each upload itself (a
   * snackbar, which is announced): one event, one announcement.
   */
  announceUploaded?: boolean;
};

/** Phones and tablets get a "Take a photo" button: their camera is one tap away. */
function useCoarsePointer() {
  const [coarse] = useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches,
  );
  return coarse;
}

export function UploadField({
  label,
  upload,
  onUploaded,
  maxBytes = MAX_UPLOAD_BYTES,
  hint,
  disabled = false,
  id,
  announceUploaded = true,
}: UploadFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const ids = {
    label: `${inputId}-label`,
    hint: `${inputId}-hint`,
    accepted: `${inputId}-accepted`,
    camera: `${inputId}-camera`,
    error: (key: number) => `${inputId}-error-${key}`,
    retry: (key: number) => `${inputId}-retry-${key}`,
    row: (key: number) => `${inputId}-row-${key}`,
  };
  const inputRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const controllers = useRef(new Map<number, AbortController>());
  const nextKey = useRef(1);
  const dragDepth = useRef(0);
  const focusRetryOf = useRef<number | null>(null);
  const [rows, setRows] = useState<Row[]>([]);
  const [dragging, setDragging] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const coarse = useCoarsePointer();

  const patch = (key: number, change: Partial<Row>) =>
    setRows((list) => list.map((row) => (row.key === key ? { ...row, ...change } : row)));

  // After Cancel, the button pressed is gone: focus goes to the row's Retry.
  useEffect(() => {
    const key = focusRetryOf.current;
    if (key === null) return;
    const retry = document.getElementById(ids.retry(key));
    if (retry) {
      focusRetryOf.current = null;
      retry.focus();
    }
  });

  function send(key: number, file: File) {
    const controller = new AbortController();
    controllers.current.set(key, controller);
    // Said as it goes, at every quarter: the bar alone is silent unless someone moves to it.
    let announced = 0;
    setAnnouncement(t('upload.started', { name: file.name }));
    upload(file, {
      signal: controller.signal,
      onProgress: (loaded, total) => {
        const percent = total > 0 ? (loaded * 100) / total : 0;
        patch(key, { percent });
        const step = Math.floor(percent / PROGRESS_STEP) * PROGRESS_STEP;
        if (step > announced && step < 100) {
          announced = step;
          setAnnouncement(t('upload.uploading', { name: file.name, percent: step }));
        }
      },
    }).then(
      (answer) => {
        controllers.current.delete(key);
        // Focus in the row leaving (its Cancel) goes back to the picker.
        if (document.getElementById(ids.row(key))?.contains(document.activeElement)) chooseRef.current?.focus();
        setRows((list) => list.filter((row) => row.key !== key));
        // The caller may say it itself (a snackbar): then the progress said last goes quietly.
        setAnnouncement(announceUploaded ? t('upload.done', { name: file.name }) : '');
        onUploaded?.(file, answer);
      },
      (error: unknown) => {
        controllers.current.delete(key);
        // A failure is read from its message (role="alert"); a cancel has none.
        if (isAbort(error)) setAnnouncement(t('upload.cancelledName', { name: file.name }));
        patch(
          key,
          isAbort(error)
            ? { state: 'cancelled', retryable: true }
            : { state: 'failed', error: failureOf(error), retryable: retryable(error) },
        );
      },
    );
  }

  function add(files: FileList | null) {
    if (!files || disabled) return;
    const added: Row[] = [...files].map((file) => {
      const refusal = refusalOf(file, maxBytes);
      return refusal
        ? { key: nextKey.current++, file, state: 'refused', percent: 0, error: refusal }
        : { key: nextKey.current++, file, state: 'sending', percent: 0 };
    });
    if (added.length === 0) return;
    setAnnouncement('');
    setRows((list) => [...list, ...added]);
    for (const row of added) if (row.state === 'sending') send(row.key, row.file);
  }

  function retry(row: Row) {
    patch(row.key, { state: 'sending', percent: 0, error: undefined, retryable: undefined });
    send(row.key, row.file);
  }

  function cancel(row: Row) {
    focusRetryOf.current = row.key;
    controllers.current.get(row.key)?.abort();
  }

  function remove(row: Row) {
    setRows((list) => list.filter((r) => r.key !== row.key));
    chooseRef.current?.focus();
  }

  const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');
  const drag = {
    onDragEnter(event: DragEvent) {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      dragDepth.current += 1;
      setDragging(true);
    },
    onDragOver(event: DragEvent) {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave() {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop(event: DragEvent) {
      if (disabled) return;
      event.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      add(event.dataTransfer.files);
    },
  };

  // The messages of refused and failed files are read with the picker, after its hint.
  const describedBy = [
    ...rows.filter((row) => row.error).map((row) => ids.error(row.key)),
    hint ? ids.hint : '',
    ids.accepted,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={styles.field} role="group" aria-labelledby={ids.label}>
      <label id={ids.label} htmlFor={inputId} className={fieldStyles.label}>
        {label}
      </label>
      <FieldHint id={ids.hint}>{hint}</FieldHint>
      <div
        className={styles.zone}
        data-dragging={dragging || undefined}
        data-disabled={disabled || undefined}
        data-testid="upload-drop-zone"
        {...drag}
      >
        {/* A phone has nothing to drag from: its buttons say what to do. */}
        {coarse && !dragging ? null : (
          <p className={styles.zoneText}>{dragging ? t('upload.dropNow') : t('upload.dropHere')}</p>
        )}
        <div className={styles.buttons}>
          <Button
            ref={chooseRef}
            variant="secondary"
            disabled={disabled}
            aria-describedby={describedBy}
            onClick={() => inputRef.current?.click()}
          >
            {t('upload.chooseFiles')}
          </Button>
          {coarse ? (
            <Button variant="secondary" disabled={disabled} onClick={() => cameraRef.current?.click()}>
              {t('upload.takePhoto')}
            </Button>
          ) : null}
        </div>
        {/* The real inputs: labelled, out of the tab order (the buttons above open them). */}
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="visually-hidden"
          tabIndex={-1}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(event) => {
            add(event.target.files);
            // The same file may be chosen again (a retry after Remove).
            event.target.value = '';
          }}
        />
        {coarse ? (
          <>
            <label htmlFor={ids.camera} className="visually-hidden">
              {`${t('upload.takePhoto')}: ${label}`}
            </label>
            <input
              ref={cameraRef}
              id={ids.camera}
              type="file"
              accept="image/*"
              capture="environment"
              className="visually-hidden"
              tabIndex={-1}
              disabled={disabled}
              onChange={(event) => {
                add(event.target.files);
                event.target.value = '';
              }}
            />
          </>
        ) : null}
      </div>
      <p id={ids.accepted} className={fieldStyles.hint}>
        {t('upload.accepted', { limit: formatFileSize(maxBytes) })}
      </p>
      {rows.length > 0 ? (
        <ul className={styles.rows} aria-label={t('upload.queue')}>
          {rows.map((row) => (
            <li key={row.key} id={ids.row(row.key)} className={styles.row} data-state={row.state}>
              <div className={styles.rowHead}>
                <span className={styles.name}>{row.file.name}</span>
                <span className={styles.size}>
                  {/* The bar's value in words for the eye; screen readers read it from the bar. */}
                  {row.state === 'sending' ? (
                    <span aria-hidden="true">{t('upload.percent', { percent: Math.round(row.percent) })} · </span>
                  ) : null}
                  <span>{formatFileSize(row.file.size)}</span>
                </span>
              </div>
              {row.state === 'sending' ? (
                <Progress
                  value={row.percent}
                  label={t('upload.progress', { name: row.file.name })}
                  valueText={t('upload.percent', { percent: Math.round(row.percent) })}
                />
              ) : null}
              {row.state === 'cancelled' ? <p className={styles.note}>{t('upload.cancelled')}</p> : null}
              {row.error ? (
                <p id={ids.error(row.key)} role="alert" className={fieldStyles.error}>
                  <span aria-hidden="true" className={fieldStyles.errorIcon} />
                  {row.error}
                </p>
              ) : null}
              <div className={styles.rowActions}>
                {row.state === 'sending' ? (
                  <Button
                    variant="quiet"
                    aria-label={t('upload.cancelName', { name: row.file.name })}
                    onClick={() => cancel(row)}
                  >
                    {t('upload.cancel')}
                  </Button>
                ) : null}
                {row.retryable && (row.state === 'failed' || row.state === 'cancelled') ? (
                  <Button
                    id={ids.retry(row.key)}
                    variant="secondary"
                    aria-label={t('upload.retryName', { name: row.file.name })}
                    onClick={() => retry(row)}
                  >
                    {t('upload.retry')}
                  </Button>
                ) : null}
                {row.state !== 'sending' ? (
                  <Button
                    variant="quiet"
                    aria-label={t('upload.removeName', { name: row.file.name })}
                    onClick={() => remove(row)}
                  >
                    {t('upload.remove')}
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}
