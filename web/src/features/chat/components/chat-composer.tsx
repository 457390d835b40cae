// The composer: on a desktop Enter sends and Shift+Enter starts a new line; on a phone (a coarse
// pointer, or a narrow screen), where there is no Shift+Enter to speak of, Enter starts a new line and
// the Send button sends; a counter near the 5000-character limit; one optional attachment, checked like the documents page checks files before a byte is
// sent. Whatever fails keeps what was typed and chosen, with the message next to its control.
import '@/features/chat/lib/messages';
import '@/components/upload-field/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { TextAreaField } from '@/components/ui/text-field';
import { formatFileSize, MAX_UPLOAD_BYTES, refusalOf } from '@/components/upload-field/upload-field';
import { ApiError, apiMessages, errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { invalidateChat, MAX_MESSAGE_LENGTH, sendChatMessage } from '../api/chat-api';
import styles from './chat.module.css';

/** A phone or tablet: its keyboard's Enter is for new lines; the Send button sends. */
const TOUCH_QUERY = '(pointer: coarse), (max-width: 599px)';

function useTouchComposer() {
  const [touch] = useState(() => typeof window.matchMedia === 'function' && window.matchMedia(TOUCH_QUERY).matches);
  return touch;
}

/** The counter shows from here on. */
const COUNTER_FROM = MAX_MESSAGE_LENGTH - 500;

const ACCEPT = '.pdf,.jpg,.jpeg,.png,.gif,.doc,.docx,.xls,.xlsx';

type Errors = { message?: string; file?: string; form?: string };

/** Where the server's refusal belongs: the text, the file, or the form as a whole. */
function errorsOf(error: unknown): Errors {
  if (error instanceof ApiError) {
    if (error.status === 413 || error.status === 415) return { file: error.errorMessage };
    if (error.status === 403) return { form: apiMessages.accessDenied };
    const message = error.errorFields.find((f) => f.field === 'message')?.message;
    const file = error.errorFields.find((f) => f.field === 'file')?.message;
    if (message || file) return { message, file };
  }
  return { form: `${t('chat.error.create')}: ${errorMessageOf(error)}` };
}

type ChatComposerProps = {
  profileId: number;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  disabled?: boolean;
};

export function ChatComposer({ profileId, textareaRef, disabled = false }: ChatComposerProps) {
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const fileInputId = useId();
  const fileErrorId = useId();
  const counterId = useId();
  const touch = useTouchComposer();

  const send = useMutation({
    mutationFn: ({ message, attachment }: { message: string; attachment: File | null }) =>
      sendChatMessage(profileId, message, attachment),
    onSuccess: () => {
      setText('');
      setFile(null);
      setErrors({});
      void invalidateChat(client, profileId);
    },
    onError: (error) => setErrors(errorsOf(error)),
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (send.isPending || disabled) return;
    const trimmed = text.trim();
    if (!trimmed && !file) {
      setErrors({ message: t('chat.required') });
      return;
    }
    if (trimmed.length > MAX_MESSAGE_LENGTH) {
      setErrors({ message: t('chat.tooLong') });
      return;
    }
    setErrors({});
    send.mutate({ message: trimmed, attachment: file });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!touch && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    const refusal = refusalOf(chosen, MAX_UPLOAD_BYTES);
    setErrors((e) => ({ ...e, file: refusal ?? undefined }));
    setFile(refusal ? null : chosen);
  };

  const length = text.trim().length;
  return (
    <form className={styles.composer} onSubmit={submit} noValidate>
      {errors.form ? <Alert>{errors.form}</Alert> : null}
      <TextAreaField
        ref={textareaRef}
        label={t('chat.message')}
        hint={touch ? t('chat.hintTouch') : t('chat.hint')}
        rows={3}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (errors.message) setErrors((e) => ({ ...e, message: undefined }));
        }}
        onKeyDown={onKeyDown}
        error={errors.message}
        aria-describedby={length >= COUNTER_FROM ? counterId : undefined}
      />
      {length >= COUNTER_FROM ? (
        <p id={counterId} className={length > MAX_MESSAGE_LENGTH ? styles.counterOver : styles.counter}>
          {t('chat.counter', { count: length, max: MAX_MESSAGE_LENGTH })}
        </p>
      ) : null}
      {file ? (
        <div className={styles.chosen} aria-label={t('chat.chosenFile')} role="group">
          <span className={styles.chosenName}>
            {t('chat.attachment', { name: file.name, size: formatFileSize(file.size) })}
          </span>
          <Button
            variant="quiet"
            aria-label={t('chat.removeFile', { name: file.name })}
            onClick={() => {
              setFile(null);
              setErrors((e) => ({ ...e, file: undefined }));
            }}
          >
            {t('upload.remove')}
          </Button>
        </div>
      ) : null}
      <FieldError id={fileErrorId}>{errors.file}</FieldError>
      <div className={styles.actions}>
        <input
          ref={fileInput}
          id={fileInputId}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          accept={ACCEPT}
          aria-label={t('chat.attach')}
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <Button
          variant="secondary"
          aria-describedby={errors.file ? fileErrorId : undefined}
          onClick={() => fileInput.current?.click()}
          disabled={disabled}
        >
          {t('chat.attach')}
        </Button>
        <Button type="submit" loading={send.isPending} disabled={disabled}>
          {send.isPending ? t('chat.sending') : t('chat.send')}
        </Button>
      </div>
    </form>
  );
}
