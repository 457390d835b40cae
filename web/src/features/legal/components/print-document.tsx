// /print/{type}: a legal document on paper (spec section 2). Only the
// documents that apply to the applicant are printed; a signed one is printed
// as it was signed, with its signature block.
import '@/features/legal/lib/messages';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { headingsBelow } from '@/lib/document-html';
import { notify } from '@/lib/notifications';
import { usePageTitle } from '@/lib/page-title';
import { downloadSignedPdf } from '../api/download-signed-pdf';
import { useDocumentContent } from '../api/get-document-content';
import { useLegalDocuments } from '../api/get-legal-documents';
import { useSubjectLocation } from '../api/subject-location';
import {
  legalSteps,
  printNameOf,
  noticeName,
  rightsNotices,
  type DocumentInstance,
  type LegalDocument,
  type Location,
  type Signature,
} from '../lib/legal-steps';
import styles from './print-document.module.css';
import { t } from '@/lib/i18n';
import { textLang } from '../lib/text-language';
import { currentLocale } from '@/lib/locale';

/** The documents a print page shows, by its kebab-case type: those of the applicant's steps. */
export function documentsForPrint(documents: LegalDocument[], location: Location, type: string): LegalDocument[] {
  const applicable = legalSteps(documents, location).flatMap((s) => s.documents);
  const name = type === 'rightslinks' ? 'rights' : type;
  return applicable.filter((d) => printNameOf(d.type.documentType) === name);
}

/** The signed per-employer DOT releases a print page shows: on the DOT release page only. */
export function releasesForPrint(
  documents: LegalDocument[],
  type: string,
): { document: LegalDocument; instance: DocumentInstance }[] {
  if (type !== printNameOf('dot_release')) return [];
  return documents.flatMap((document) =>
    (document.instances ?? []).filter((i) => i.signature).map((instance) => ({ document, instance })),
  );
}

export function PrintDocument({ type }: { type: string }) {
  const documents = useLegalDocuments();
  const location = useSubjectLocation();
  const failed = documents.error ?? location.error;
  if (failed) {
    return (
      <div className={styles.page}>
        <Alert>
          <p>{errorMessageOf(failed)}</p>
        </Alert>
      </div>
    );
  }
  if (!documents.data || !location.data) {
    return (
      <div className={styles.page}>
        <Skeleton lines={10} label={t('legal.print.loading')} />
      </div>
    );
  }
  return <PrintedPage type={type} documents={documents.data} location={location.data} />;
}

function PrintedPage({ type, documents, location }: { type: string; documents: LegalDocument[]; location: Location }) {
  const shown = documentsForPrint(documents, location, type);
  const releases = releasesForPrint(documents, type);
  // One document is the page, its own h1 the page's; several (the rights, an employer's releases)
  // get a title of the page's, and their headings move a level down: one h1 per page.
  const several = type === 'rightslinks' || shown.length + releases.length > 1;
  const single = shown.length === 1 ? shown[0].title : releases.length === 1 ? releaseTitleOf(releases[0]) : null;
  const pageTitle =
    shown.length === 0 && releases.length === 0
      ? t('legal.print.documentNotFound')
      : type === 'rightslinks'
        ? t('legal.print.yourRights')
        : several
          ? (shown[0]?.title ?? releases[0].document.title)
          : single;
  usePageTitle(pageTitle);
  if (shown.length === 0 && releases.length === 0) {
    return (
      <div className={styles.page}>
        <BackToPortal />
        <h1>{t('legal.print.documentNotFound')}</h1>
        <p>{t('legal.print.noDocumentToPrint', { type })}</p>
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <div className={styles.toolbar}>
        <BackToPortal />
        <Button onClick={() => window.print()}>{t('legal.print.print')}</Button>
      </div>
      {several && type !== 'rightslinks' ? <h1>{pageTitle}</h1> : null}
      {type === 'rightslinks' ? (
        <nav aria-label={t('legal.print.yourRights')}>
          <h1>{t('legal.print.yourRights')}</h1>
          <ul>
            {shown.map((d) => (
              <li key={d.id}>
                <a href={`#document-${d.id}`}>
                  {noticeName(rightsNotices.find((n) => n.documentType === d.type.documentType)) ?? d.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {shown.map((d) => (
        <PrintedDocument key={d.id} document={d} demoted={several} />
      ))}
      {releases.map(({ document, instance }) => (
        <PrintedRelease key={instance.instance} document={document} instance={instance} demoted={several} />
      ))}
    </div>
  );
}

/** Print pages have no menu: the way back into the app (home sends on to the applicant's page). */
function BackToPortal() {
  return (
    <nav aria-label={t('legal.print.back')} className={styles.back}>
      <Link to={paths.home.getHref()}>{t('legal.print.backToTheApplicantPortal')}</Link>
    </nav>
  );
}

const releaseTitleOf = ({ document, instance }: { document: LegalDocument; instance: DocumentInstance }) =>
  t('legal.dot.releaseTitle', { title: document.title, employer: instance.employerName });

/** The document's HTML, its headings a level down when it is one of several on the page. */
const printedHtml = (html: string, demoted: boolean) => (demoted ? headingsBelow(html, 1) : html);

function PrintedDocument({ document: d, demoted }: { document: LegalDocument; demoted: boolean }) {
  const sig = d.signature;
  const content = useDocumentContent(d.id, sig !== null);
  return (
    <article id={`document-${d.id}`} className={styles.document} aria-label={d.title}>
      {content.isError ? (
        <Alert>
          <p>{errorMessageOf(content.error)}</p>
        </Alert>
      ) : null}
      {content.data ? (
        // The server sanitized this HTML; on paper the document is the page, so its h1 is the page's.
        <div
          {...textLang(content.data.language)}
          dangerouslySetInnerHTML={{ __html: printedHtml(content.data.content, demoted) }}
        />
      ) : content.isPending ? (
        <Skeleton lines={10} label={t('legal.print.loading')} />
      ) : null}
      {sig ? (
        <SignatureBlock
          signature={sig}
          // Named by its document: a page prints several, and landmarks need names of their own.
          label={t('legal.print.signatureRegion', { title: d.title })}
          downloadLabel={
            d.title ? t('legal.print.downloadSignedOf', { title: d.title }) : t('legal.print.downloadSigned')
          }
          onDownload={() => downloadSignedPdf(d.id, `${printNameOf(d.type.documentType)}-signed.pdf`)}
        />
      ) : null}
    </article>
  );
}

/** A per-employer DOT release as it was signed (its text names the employer), with its signature block. */
function PrintedRelease({
  document: d,
  instance,
  demoted,
}: {
  document: LegalDocument;
  instance: DocumentInstance;
  demoted: boolean;
}) {
  const content = useDocumentContent(d.id, true, instance.instance);
  const employer = instance.employerName;
  const title = releaseTitleOf({ document: d, instance });
  return (
    <article id={`release-${instance.instance}`} className={styles.document} aria-label={title}>
      {content.isError ? (
        <Alert>
          <p>{errorMessageOf(content.error)}</p>
        </Alert>
      ) : null}
      {content.data ? (
        <div
          {...textLang(content.data.language)}
          dangerouslySetInnerHTML={{ __html: printedHtml(content.data.content, demoted) }}
        />
      ) : content.isPending ? (
        <Skeleton lines={10} label={t('legal.print.loading')} />
      ) : null}
      {instance.signature ? (
        <SignatureBlock
          signature={instance.signature}
          label={t('legal.dot.signatureRegion', { title: d.title, employer })}
          downloadLabel={t('legal.dot.downloadSignedPdfFor', { employer })}
          onDownload={() => downloadSignedPdf(d.id, `dot-release-${instance.instance}-signed.pdf`, instance.instance)}
        />
      ) : null}
    </article>
  );
}

type SignatureBlockProps = {
  signature: Signature;
  label: string;
  downloadLabel: string;
  onDownload: () => Promise<void>;
};

function SignatureBlock({ signature: sig, label, downloadLabel, onDownload }: SignatureBlockProps) {
  const answer = sig.fields.testedPositiveOrRefused;
  return (
    <section className={styles.signature} aria-label={label}>
      {sig.signatureData ? (
        <img
          src={sig.signatureData}
          alt={t('legal.print.signatureOf', { name: sig.signerName })}
          className={styles.image}
        />
      ) : null}
      <dl>
        <dt>{sig.outcome === 'paper_forms' ? t('legal.print.paperFormsRequestedBy') : t('legal.print.signedBy')}</dt>
        <dd>{sig.signerName}</dd>
        <dt>{t('legal.print.signed')}</dt>
        <dd>{new Date(sig.createdAt).toLocaleString(currentLocale(), { timeZone: 'UTC', timeZoneName: 'short' })}</dd>
        <dt>{t('legal.print.fromIpAddress')}</dt>
        <dd>{sig.signatureUserIp}</dd>
        <dt>{t('legal.print.version')}</dt>
        <dd>{sig.documentVersion}</dd>
        <dt>{t('legal.print.sha256OfTheText')}</dt>
        <dd className={styles.hash}>{sig.contentSha256}</dd>
        {answer === 'yes' || answer === 'no' ? (
          <>
            <dt>{t('legal.dot.question')}</dt>
            <dd>{answer === 'yes' ? t('legal.dot.yes') : t('legal.dot.no')}</dd>
          </>
        ) : null}
      </dl>
      <div className={styles.toolbar}>
        <Button variant="secondary" onClick={() => onDownload().catch((e) => notify(errorMessageOf(e), 'error'))}>
          {downloadLabel}
        </Button>
      </div>
    </section>
  );
}
