// /print/{type}: a legal document on paper (spec section 2), with its
// signature block when signed.
import { Button } from '@/components/ui/button';
import { errorMessageOf } from '@/lib/api-client';
import { useDocumentContent } from '../api/get-document-content';
import { useLegalDocuments } from '../api/get-legal-documents';
import { isRightsDocument, printNameOf, rightsNotices, type LegalDocument } from '../lib/legal-steps';
import styles from './print-document.module.css';

/** The documents a print page shows, by its kebab-case type. */
export function documentsForPrint(documents: LegalDocument[], type: string): LegalDocument[] {
  if (type === 'rights' || type === 'rightslinks') return documents.filter((d) => isRightsDocument(d.type.documentType));
  return documents.filter((d) => printNameOf(d.type.documentType) === type);
}

export function PrintDocument({ type }: { type: string }) {
  const documents = useLegalDocuments();
  if (documents.isError) return <p role="alert">{errorMessageOf(documents.error)}</p>;
  if (!documents.data) return <p>Loading…</p>;
  const shown = documentsForPrint(documents.data, type);
  if (shown.length === 0) {
    return (
      <div className={styles.page}>
        <h1>Document not found</h1>
        <p>There is no document “{type}” to print.</p>
      </div>
    );
  }
  if (type === 'rightslinks') {
    return (
      <div className={styles.page}>
        <h1>Your rights</h1>
        <ul>
          {shown.map((d) => (
            <li key={d.id}>
              <a href={`#document-${d.id}`}>{rightsNotices.find((n) => n.documentType === d.type.documentType)?.name ?? d.title}</a>
            </li>
          ))}
        </ul>
        {shown.map((d) => (
          <PrintedDocument key={d.id} document={d} />
        ))}
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <div className={styles.toolbar}>
        <Button onClick={() => window.print()}>Print</Button>
      </div>
      {shown.map((d) => (
        <PrintedDocument key={d.id} document={d} />
      ))}
    </div>
  );
}

function PrintedDocument({ document: d }: { document: LegalDocument }) {
  const content = useDocumentContent(d.id);
  const sig = d.signature;
  return (
    <article id={`document-${d.id}`} className={styles.document} aria-label={d.title}>
      {content.data ? <div dangerouslySetInnerHTML={{ __html: content.data.content }} /> : <p>Loading…</p>}
      {sig ? (
        <section className={styles.signature} aria-label="Signature">
          {sig.signatureData ? <img src={sig.signatureData} alt="Signature" className={styles.image} /> : null}
          <dl>
            <dt>Signed</dt>
            <dd>{new Date(sig.createdAt).toLocaleString('en-US', { timeZone: 'UTC', timeZoneName: 'short' })}</dd>
            <dt>From IP address</dt>
            <dd>{sig.signatureUserIp}</dd>
            <dt>Version</dt>
            <dd>{sig.documentVersion}</dd>
            <dt>SHA-256 of the text signed</dt>
            <dd className={styles.hash}>{sig.contentSha256}</dd>
          </dl>
        </section>
      ) : null}
    </article>
  );
}
