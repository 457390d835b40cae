// "Your signed documents": where an applicant finds what they signed after
// setup: each document's print page (as signed, with its signature block) and
// its signed PDF.
import '@/features/legal/lib/messages';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { notify } from '@/lib/notifications';
import { downloadSignedPdf } from '../api/download-signed-pdf';
import { useLegalDocuments } from '../api/get-legal-documents';
import { useSubjectLocation } from '../api/subject-location';
import { legalSteps, printNameOf } from '../lib/legal-steps';
import { releasePrintHref } from './dot-release-list';
import { releasesForPrint } from './print-document';
import styles from './signed-documents.module.css';
import { t } from '@/lib/i18n';
import { textLang } from '../lib/text-language';
import { currentLocale } from '@/lib/locale';

export function SignedDocuments() {
  const documents = useLegalDocuments();
  const location = useSubjectLocation();
  const failed = documents.error ?? location.error;
  let body;
  if (failed)
    body = (
      <Alert>
        <p>{errorMessageOf(failed)}</p>
      </Alert>
    );
  else if (!documents.data || !location.data)
    body = <Skeleton lines={4} label={t('legal.signed.loadingYourDocuments')} />;
  else {
    const signed = legalSteps(documents.data, location.data)
      .flatMap((s) => s.documents)
      .filter((d) => d.signature);
    const releases = releasesForPrint(documents.data, printNameOf('dot_release'));
    body =
      signed.length === 0 && releases.length === 0 ? (
        <p>{t('legal.signed.youHaveNotSignedAny')}</p>
      ) : (
        <ul className={styles.list}>
          {signed.map((d) => {
            const printName = printNameOf(d.type.documentType);
            const sig = d.signature!;
            return (
              <li key={d.id} className={styles.item}>
                <div className={styles.title} {...textLang(d.language)}>
                  {d.title}
                </div>
                <div className={styles.meta}>
                  {sig.outcome === 'paper_forms' ? t('legal.signed.paperFormsRequested') : t('legal.signed.signed')}{' '}
                  {new Date(sig.createdAt).toLocaleDateString(currentLocale(), { dateStyle: 'long' })}
                </div>
                <div className={styles.actions}>
                  <Link
                    className={styles.link}
                    to={`${paths.print.getHref(printName)}#document-${d.id}`}
                    aria-label={t('legal.signed.viewAndPrint', { title: d.title })}
                  >
                    {t('legal.signed.viewAndPrint2')}
                  </Link>
                  <Button
                    variant="link"
                    aria-label={t('legal.signed.downloadPdf', { title: d.title })}
                    onClick={() =>
                      downloadSignedPdf(d.id, `${printName}-signed.pdf`).catch((e) =>
                        notify(errorMessageOf(e), 'error'),
                      )
                    }
                  >
                    {t('legal.signed.downloadSignedPdf')}
                  </Button>
                </div>
              </li>
            );
          })}
          {releases.map(({ document: d, instance: i }) => {
            const title = t('legal.dot.releaseTitle', { title: d.title, employer: i.employerName });
            return (
              <li key={`release-${i.instance}`} className={styles.item}>
                <div className={styles.title}>{title}</div>
                <div className={styles.meta}>
                  {t('legal.signed.signed')}{' '}
                  {new Date(i.signature!.createdAt).toLocaleDateString(currentLocale(), { dateStyle: 'long' })}
                </div>
                <div className={styles.actions}>
                  <Link
                    className={styles.link}
                    to={releasePrintHref(i.instance)}
                    aria-label={t('legal.signed.viewAndPrint', { title })}
                  >
                    {t('legal.signed.viewAndPrint2')}
                  </Link>
                  <Button
                    variant="link"
                    aria-label={t('legal.signed.downloadPdf', { title })}
                    onClick={() =>
                      downloadSignedPdf(d.id, `dot-release-${i.instance}-signed.pdf`, i.instance).catch((e) =>
                        notify(errorMessageOf(e), 'error'),
                      )
                    }
                  >
                    {t('legal.signed.downloadSignedPdf')}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      );
  }
  return (
    <section className={styles.section} aria-labelledby="signed-documents-title">
      <h2 id="signed-documents-title" className={styles.heading}>
        {t('legal.signed.yourSignedDocuments')}
      </h2>
      {body}
    </section>
  );
}
