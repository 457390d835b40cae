// /fillable-pdf-form "Forms": the employer's fillable PDF forms that apply to
// the applicant, each with whether it was sent, and one open at a time in the
// editor (?form={id}, so the browser's Back returns to the list). After a
// submit, the list says it was sent and offers the way on: the next form still
// to send, else the next thing left to do.
import '@/features/pdf-forms/lib/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { notify } from '@/lib/notifications';
import { pathAfterSave } from '@/lib/subject';
import { downloadFilledForm, usePdfForms, type PdfForm } from '../api/pdf-forms';
import { FormEditor } from './form-editor';
import { FormStatus } from './form-status';
import styles from './pdf-forms.module.css';

function FormCard({ form, onOpen }: { form: PdfForm; onOpen: () => void }) {
  const [downloading, setDownloading] = useState(false);
  const titleId = `form-${form.id}-title`;
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFilledForm(form);
    } catch (error) {
      notify(t('forms.card.downloadFailed', { reason: errorMessageOf(error) }), 'error');
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Card as="article" className={styles.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.cardTitle}>
        {form.title}
      </h2>
      {form.description ? <p className={styles.muted}>{form.description}</p> : null}
      <FormStatus form={form} />
      <div className={styles.actions}>
        <Button
          data-form-id={form.id}
          variant={form.submitted ? 'secondary' : 'primary'}
          // The visible words start the name; the name says which form (several cards say "Fill in").
          aria-label={
            form.submitted
              ? t('forms.card.fillInAgainNamed', { title: form.title })
              : t('forms.card.fillInNamed', { title: form.title })
          }
          onClick={onOpen}
        >
          {form.submitted ? t('forms.card.fillInAgain') : t('forms.card.fillIn')}
        </Button>
        {form.submitted ? (
          <Button
            variant="link"
            loading={downloading}
            aria-label={t('forms.card.downloadNamed', { title: form.title })}
            onClick={() => void download()}
          >
            {t('forms.card.download')}
          </Button>
        ) : null}
      </div>
    </Card>
  );
}

/** The forms not sent yet but `sent`, the required first. */
function formsLeft(forms: PdfForm[], sent: PdfForm): PdfForm[] {
  return forms
    .filter((form) => !form.submitted && form.id !== sent.id)
    .sort((a, b) => Number(b.required) - Number(a.required));
}

function FormSent({ sent, forms, onOpen }: { sent: PdfForm; forms: PdfForm[]; onOpen: (form: PdfForm) => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  // Opened from the review's "Change" link, the way on leads back to it.
  const { search } = useLocation();
  const [leaving, setLeaving] = useState(false);
  const left = formsLeft(forms, sent);
  const next = left.at(0);
  // An optional form can be left: the way on is offered beside it.
  const canGoOn = !left.some((form) => form.required);
  const goOn = async () => {
    setLeaving(true);
    await navigate(await pathAfterSave(client, 'fillable-pdf-form', search));
  };
  let nextText = t('forms.sent.allSent');
  if (next) nextText = t(next.required ? 'forms.sent.nextRequired' : 'forms.sent.nextOptional', { title: next.title });
  return (
    <Alert tone="success" title={t('forms.sent.title')} focusOnMount>
      <p>{t('forms.sent.text', { title: sent.title })}</p>
      <p>{nextText}</p>
      <div className={styles.actions}>
        {next ? <Button onClick={() => onOpen(next)}>{t('forms.sent.openNext', { title: next.title })}</Button> : null}
        {canGoOn ? (
          <Button variant={next ? 'secondary' : 'primary'} loading={leaving} onClick={() => void goOn()}>
            {t('forms.sent.continue')}
          </Button>
        ) : null}
      </div>
    </Alert>
  );
}

export function FillableFormsPage() {
  const forms = usePdfForms();
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('form')) || null;
  const open = openId ? forms.data?.find((f) => f.id === openId) : undefined;
  // The form whose editor was last closed: its button gets the focus back.
  const returnTo = useRef<number | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  // The form just sent: the list then starts with what follows.
  const [sent, setSent] = useState<PdfForm | null>(null);

  useEffect(() => {
    if (open || returnTo.current === null) return;
    const button = listRef.current?.querySelector<HTMLButtonElement>(`button[data-form-id="${returnTo.current}"]`);
    button?.focus();
    returnTo.current = null;
  });

  const close = (submitted?: PdfForm) => {
    // After a submit the confirmation takes the focus, not the form's own button.
    returnTo.current = submitted ? null : (open?.id ?? null);
    setSent(submitted ?? null);
    setParams((p) => {
      p.delete('form');
      return p;
    });
  };

  const openForm = (form: PdfForm) => {
    setSent(null);
    setParams((p) => {
      p.set('form', String(form.id));
      return p;
    });
  };

  let body;
  if (forms.isError && !forms.data) {
    body = (
      <Alert title={t('forms.page.loadFailedTitle')} focusOnMount>
        <p>{t('forms.page.loadFailed', { reason: errorMessageOf(forms.error) })}</p>
        <Button variant="secondary" onClick={() => void forms.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </Alert>
    );
  } else if (!forms.data) {
    body = <Skeleton lines={6} label={t('forms.page.loading')} />;
  } else if (forms.data.length === 0) {
    body = (
      <EmptyState
        title={t('forms.page.empty')}
        action={
          <Link to={paths.profile.getHref()} className={styles.link}>
            {t('forms.page.backToProfile')}
          </Link>
        }
      >
        <p>{t('forms.page.emptyText')}</p>
      </EmptyState>
    );
  } else if (open) {
    body = <FormEditor key={open.id} form={open} onClose={close} />;
  } else {
    body = (
      <div ref={listRef} className={styles.list}>
        {sent ? <FormSent sent={sent} forms={forms.data} onOpen={openForm} /> : null}
        {forms.data.map((form) => (
          <FormCard key={form.id} form={form} onOpen={() => openForm(form)} />
        ))}
      </div>
    );
  }

  return (
    <div className={open ? `${styles.page} ${styles.pageWide}` : styles.page}>
      <PageHeader title={t('forms.page.title')} description={open ? undefined : t('forms.page.description')} />
      {body}
    </div>
  );
}
