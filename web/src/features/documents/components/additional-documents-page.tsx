// /additional-documents: one card per document type the package asks for, each with its picker
// and the files sent for it (download; delete until the profile is submitted), then the reports
// the screening attached. The checklist reads the subject again after every upload and delete.
import '@/features/documents/lib/messages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type RefObject } from 'react';
import { Link, useLocation } from 'react-router';
import buttonStyles from '@/components/ui/button.module.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogActions, DialogClose } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { UploadField, formatFileSize } from '@/components/upload-field/upload-field';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { t } from '@/lib/i18n';
import { dismissSnack, notify } from '@/lib/notifications';
import { nextPagePath, useSubject } from '@/lib/subject';
import { UPLOAD_MESSAGE_TIMEOUT, uploadQueue } from '@/lib/upload';
import {
  deleteDocument,
  documentsQuery,
  downloadDocument,
  invalidateDocuments,
  uploadDocument,
  useDocuments,
  type DocumentList,
  type DocumentType,
  type UploadedDocument,
} from '../api/documents';
import { DownloadButton, ReportList } from './report-list';
import styles from './documents.module.css';
import { longDate } from '@/lib/format-date';

const PAGE_ID = 'additional-documents';

/**
 * "Document uploaded", once on screen however many files arrive: each upload replaces the last
 * one's message (and is announced), rather than stacking one per file for 20 seconds.
 */
let lastUploadedSnack: number | null = null;
function notifyUploaded() {
  if (lastUploadedSnack !== null) dismissSnack(lastUploadedSnack);
  lastUploadedSnack = notify(t('documents.uploaded'), 'success', UPLOAD_MESSAGE_TIMEOUT).id;
}

function DeleteDocument({
  document,
  headingRef,
}: {
  document: UploadedDocument;
  headingRef: RefObject<HTMLElement | null>;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  // Back to Delete when kept; to the card's title once the file (and its Delete) are gone.
  const returnTo = useRef<HTMLElement | null>(null);
  const removal = useMutation({
    mutationFn: () => deleteDocument(document.id),
    onSuccess: async () => {
      returnTo.current = headingRef.current;
      setOpen(false);
      notify(t('documents.deleted'), 'success');
      client.setQueryData(documentsQuery().queryKey, (list: DocumentList | undefined) =>
        list ? { ...list, documents: list.documents.filter((d) => d.id !== document.id) } : list,
      );
      await invalidateDocuments(client);
    },
  });
  return (
    <>
      <Button
        ref={trigger}
        variant="quiet"
        aria-label={t('documents.deleteName', { name: document.name })}
        onClick={() => {
          returnTo.current = trigger.current;
          removal.reset();
          setOpen(true);
        }}
      >
        {t('documents.delete')}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t('documents.deleteTitle', { name: document.name })}
        description={t('documents.deleteText')}
        returnFocusTo={returnTo}
      >
        {removal.isError ? (
          <Alert>
            <p>{t('documents.deleteFailed', { reason: errorMessageOf(removal.error) })}</p>
          </Alert>
        ) : null}
        <DialogActions>
          <DialogClose asChild>
            <Button variant="secondary">{t('documents.keep')}</Button>
          </DialogClose>
          <Button variant="danger" loading={removal.isPending} onClick={() => removal.mutate()}>
            {t('documents.deleteConfirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function SentFiles({
  documents,
  writable,
  deletable,
  headingRef,
}: {
  documents: UploadedDocument[];
  writable: boolean;
  deletable: boolean;
  headingRef: RefObject<HTMLElement | null>;
}) {
  // Once the screening is complete, "yet" would promise a chance that is gone.
  if (documents.length === 0)
    return <p className={styles.muted}>{writable ? t('documents.noneSent') : t('documents.noneSentClosed')}</p>;
  return (
    <ul className={styles.files}>
      {documents.map((document) => (
        <li key={document.id} className={styles.file}>
          <div className={styles.fileText}>
            <span className={styles.fileName}>{document.name}</span>
            <span className={styles.muted}>
              {t('documents.fileDetails', { size: formatFileSize(document.size), date: longDate(document.createdAt) })}
            </span>
          </div>
          <div className={styles.fileActions}>
            <DownloadButton name={document.name} download={() => downloadDocument(document)} />
            {deletable ? <DeleteDocument document={document} headingRef={headingRef} /> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

function DocumentTypeCard({ type, list, queue }: { type: DocumentType; list: DocumentList; queue: UploadQueue }) {
  const client = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const titleId = `documents-${type.type}-title`;
  const sent = list.documents.filter((d) => d.documentType === type.type);
  return (
    <Card aria-labelledby={titleId} className={styles.card}>
      <div className={styles.cardHead}>
        <h2 id={titleId} ref={headingRef} tabIndex={-1} className={styles.heading}>
          {type.title}
        </h2>
        <span className={styles.badges}>
          <span className={styles.badge} data-required={type.required || undefined}>
            {type.required ? t('documents.required') : t('documents.optional')}
          </span>
          {sent.length > 0 ? (
            <span className={styles.badge} data-sent>
              <span aria-hidden="true">✓ </span>
              {t('documents.sent')}
            </span>
          ) : null}
        </span>
      </div>
      {type.description ? <p className={styles.description}>{type.description}</p> : null}
      {list.writable ? (
        <UploadField
          id={`documents-${type.type}-files`}
          label={t('documents.addFiles', { title: type.title })}
          maxBytes={list.maxUploadBytes}
          // The snackbar says it: one announcement per file.
          announceUploaded={false}
          upload={(file, options) => queue(() => uploadDocument(type.type, file, options), options.signal)}
          onUploaded={(_file, answer) => {
            notifyUploaded();
            // Shown at once; the read that follows confirms it.
            client.setQueryData(documentsQuery().queryKey, (current: DocumentList | undefined) =>
              current && answer
                ? { ...current, documents: [answer as UploadedDocument, ...current.documents] }
                : current,
            );
            void invalidateDocuments(client);
          }}
        />
      ) : null}
      <h3 className={styles.subheading}>{t('documents.sentFiles')}</h3>
      <SentFiles documents={sent} writable={list.writable} deletable={list.deletable} headingRef={headingRef} />
    </Card>
  );
}

/** Where to go from here: the next page the checklist still needs, and the hub. */
function NextStep() {
  const subject = useSubject();
  // Opened from the review's "Change" link, the way on leads back to it.
  const { search } = useLocation();
  const next = subject.data ? nextPagePath(subject.data.pages, PAGE_ID, search) : null;
  const page = subject.data?.pages.find((p) => p.path === next);
  return (
    <nav className={styles.nextStep} aria-label={t('documents.title')}>
      {next ? (
        <Link className={`${buttonStyles.button} ${buttonStyles.primary}`} to={next}>
          {page ? t('documents.continue', { title: page.title }) : t('documents.review')}
        </Link>
      ) : null}
      <Link className={`${buttonStyles.button} ${buttonStyles.secondary}`} to={paths.profile.getHref()}>
        {t('documents.back')}
      </Link>
    </nav>
  );
}

type UploadQueue = ReturnType<typeof uploadQueue>;

/**
 * The privacy note, one card per document type with its picker and the files sent, and the
 * reports: the body of /additional-documents, and of the final page (/) where uploads stay open
 * while the screening runs. There the reports have their own section and a package that asks for
 * nothing shows nothing.
 */
export function DocumentUploads({ standalone = true }: { standalone?: boolean }) {
  const documents = useDocuments();
  // One queue for every document type: the server's slots are the applicant's, not a type's.
  const [queue] = useState(() => uploadQueue());
  const list = documents.data;
  if (!standalone && list && list.documentTypes.length === 0) return null;
  return (
    <>
      <p className={styles.privacy}>
        <span className={styles.lock} aria-hidden="true" />
        {t('documents.privacy')}
      </p>
      {documents.isError ? (
        <Alert title={t('errors.profile.get')} focusOnMount={standalone}>
          <p>{t('documents.loadFailed', { reason: errorMessageOf(documents.error) })}</p>
          <Button variant="secondary" onClick={() => void documents.refetch()}>
            {t('common.tryAgain')}
          </Button>
        </Alert>
      ) : !list ? (
        <Card>
          <Skeleton lines={5} label={t('documents.loading')} />
        </Card>
      ) : (
        <>
          {list.writable ? null : (
            <Alert tone="info">
              <p>{t('documents.closed')}</p>
            </Alert>
          )}
          {list.documentTypes.length === 0 ? (
            <Card>
              <EmptyState title={t('documents.nothing.title')}>
                <p>{t('documents.nothing.text')}</p>
              </EmptyState>
            </Card>
          ) : (
            list.documentTypes.map((type) => <DocumentTypeCard key={type.type} type={type} list={list} queue={queue} />)
          )}
          {standalone && list.reports.length > 0 ? (
            <Card aria-labelledby="documents-reports-title" className={styles.card}>
              <h2 id="documents-reports-title" className={styles.heading}>
                {t('documents.reports.title')}
              </h2>
              <p className={styles.description}>{t('documents.reports.text')}</p>
              <ReportList reports={list.reports} />
            </Card>
          ) : null}
        </>
      )}
    </>
  );
}

export function AdditionalDocumentsPage() {
  return (
    <div className={styles.page}>
      <PageHeader title={t('documents.title')} description={t('documents.description')} />
      <DocumentUploads />
      <NextStep />
    </div>
  );
}
