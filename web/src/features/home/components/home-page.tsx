// / (finalization-complete): the end of the applicant's part. It says so first, then what happens
// next, where the screening stands with its orders and services, and what the applicant may come
// back for: the collection site, the payment receipt and the reports. What they signed and the
// files they sent fold away (closed disclosures with their counts): the page is about what follows. The route passes in what other features own, since features never
// import one another.
import '@/features/home/lib/messages';
import { useEffect, useRef, type ReactNode, type Ref } from 'react';
import { useLocation } from 'react-router';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { config } from '@/lib/config';
import { errorMessageOf } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/current-user';
import { siteSelectionApplies } from '@/lib/finalization';
import { t, type MessageKey } from '@/lib/i18n';
import { ScreeningStatus } from '@/components/screening-status/screening-status';
import { profileStatusShown, type ProfileStatusShown } from '@/lib/profile-status';
import { formatAmount, usePayment, type PaymentAuthorization } from '@/lib/payment';
import { useScreeningProfile } from '@/lib/profile';
import { orderStatusPhrase } from '@/lib/order-status';
import { LoadFailed } from '@/components/load-failed/load-failed';
import styles from './home.module.css';
import { longDate } from '@/lib/format-date';

const statusLabel: Record<ProfileStatusShown, MessageKey> = {
  pending: 'home.status.pending',
  complete: 'home.status.complete',
  qa: 'home.status.qa',
};

const statusHint: Record<ProfileStatusShown, MessageKey> = {
  pending: 'home.status.pendingHint',
  complete: 'home.status.completeHint',
  qa: 'home.status.qaHint',
};

function WhatHappensNext({ company, drugTest }: { company: string; drugTest: boolean }) {
  const provider = config.brand.name;
  return (
    <Card aria-labelledby="home-next-title" className={styles.next}>
      <h2 id="home-next-title" className={styles.heading}>
        {t('home.next.title')}
      </h2>
      <ol className={styles.steps}>
        <li>{t('home.next.checks', { provider })}</li>
        {drugTest ? <li>{t('home.next.site')}</li> : null}
        <li>{t('home.next.time')}</li>
        <li>{t('home.next.contact', { provider })}</li>
        <li>{t('home.next.result', { company })}</li>
      </ol>
      <h3 className={styles.subheading}>{t('home.next.changesTitle')}</h3>
      <p className={styles.plain}>{t('home.next.changes', { company })}</p>
      <h3 className={styles.subheading}>{t('home.next.askTitle')}</h3>
      <p className={styles.plain}>{t('home.next.ask', { company, provider })}</p>
    </Card>
  );
}

/** What the applicant is done with, folded away: a native <details>, closed until asked for. */
export function HomeDisclosure({
  summary,
  children,
  ref,
}: {
  summary: string;
  children: ReactNode;
  ref?: Ref<HTMLDetailsElement>;
}) {
  return (
    <details className={styles.disclosure} ref={ref}>
      <summary className={styles.summary}>{summary}</summary>
      <div className={styles.disclosureBody}>{children}</div>
    </details>
  );
}

function Screening({ services }: { services?: ReactNode }) {
  const profile = useScreeningProfile();
  if (profile.isError) {
    return (
      <LoadFailed
        title={t('home.loadFailedTitle')}
        text={t('home.status.loadFailed', { reason: errorMessageOf(profile.error) })}
        retry={profile.refetch}
      />
    );
  }
  if (!profile.data) {
    return (
      <Card>
        <Skeleton lines={4} label={t('home.status.loading')} />
      </Card>
    );
  }
  const shown = profile.data.status ?? profileStatusShown(profile.data.statusId);
  const { orders } = profile.data;
  return (
    <Card aria-labelledby="home-status-title" className={styles.card}>
      <h2 id="home-status-title" className={styles.heading}>
        {t('home.status.title')}
      </h2>
      <ScreeningStatus
        status={shown}
        label={t('home.status.label')}
        text={t(statusLabel[shown])}
        hint={t(statusHint[shown])}
      />
      <h3 className={styles.subheading}>{t('home.orders.title')}</h3>
      {orders.length === 0 ? (
        <p>{t('home.orders.none')}</p>
      ) : (
        <ul className={styles.rows}>
          {orders.map((order) => (
            <li key={order.id} className={styles.row}>
              <span>{t('home.orders.item', { id: order.id })}</span>
              <span className={styles.muted}>{orderStatusPhrase(order.statusId)}</span>
            </li>
          ))}
        </ul>
      )}
      {services ? (
        <>
          <h3 className={styles.subheading}>{t('home.services.title')}</h3>
          {services}
        </>
      ) : null}
    </Card>
  );
}

function ReceiptDetails({ authorization }: { authorization: PaymentAuthorization }) {
  return (
    <dl className={styles.receipt}>
      <div>
        <dt>{t('home.receipt.amount')}</dt>
        <dd>{formatAmount(authorization.amount, authorization.currency)}</dd>
      </div>
      <div>
        <dt>{t('home.receipt.card')}</dt>
        <dd>{t('home.receipt.cardValue', { brand: authorization.brand, last4: authorization.last4 })}</dd>
      </div>
      <div>
        <dt>{t('home.receipt.authorization')}</dt>
        <dd className={styles.code}>{authorization.id}</dd>
      </div>
      <div>
        <dt>{t('home.receipt.date')}</dt>
        <dd>{longDate(authorization.authorizedAt)}</dd>
      </div>
    </dl>
  );
}

/** Only when a hold was placed: an applicant who owed nothing sees no payment at all. */
function Receipt() {
  const payment = usePayment();
  if (payment.isError) {
    return (
      <LoadFailed
        title={t('home.receipt.loadFailedTitle')}
        text={t('home.receipt.loadFailed', { reason: errorMessageOf(payment.error) })}
        retry={payment.refetch}
      />
    );
  }
  if (!payment.data) {
    return (
      <Card>
        <Skeleton lines={3} label={t('home.receipt.loading')} />
      </Card>
    );
  }
  const { authorization } = payment.data;
  if (!authorization) return null;
  return (
    <Card aria-labelledby="home-receipt-title" className={styles.card}>
      <h2 id="home-receipt-title" className={styles.heading}>
        {t('home.receipt.title')}
      </h2>
      <ReceiptDetails authorization={authorization} />
      <p className={styles.muted}>{t('home.receipt.hold')}</p>
    </Card>
  );
}

type HomePageProps = {
  /** An adverse-action notice (features/adverse-action), first under the title; nothing when none was sent. */
  notice?: ReactNode;
  /** The chosen collection site's card (features/collection-site); it renders nothing when none was chosen. */
  collectionSite?: ReactNode;
  /** What was signed, with links to the print pages (features/legal), folded away. */
  signedDocuments?: ReactNode;
  /** How many documents were signed; null while it is not known. */
  signedCount?: number | null;
  /** The reports the screening attached (features/documents). */
  reports?: ReactNode;
  /** The document upload still open to the applicant (features/documents). */
  documents?: ReactNode;
  /** Each service of the orders and when the screening is expected to be complete (features/screening). */
  services?: ReactNode;
};

export function HomePage({
  notice,
  collectionSite,
  signedDocuments,
  signedCount = null,
  reports,
  documents,
  services,
}: HomePageProps) {
  const user = useCurrentUser();
  const firstName = user?.subject.personalInformation?.firstName || user?.subject.firstName || user?.subject.first_name;
  const company = user?.company.name;
  const thanks = !company
    ? t('home.thanksNoCompany')
    : firstName
      ? t('home.thanks', { firstName, company })
      : t('home.thanksNoName', { company });
  return (
    <div className={styles.page}>
      <PageHeader eyebrow={t('home.eyebrow')} title={t('home.title')} description={thanks} />
      {notice}
      <WhatHappensNext company={company ?? config.brand.name} drugTest={user ? siteSelectionApplies(user) : false} />
      <Screening services={services} />
      {collectionSite}
      <Receipt />
      {reports}
      {signedDocuments ? (
        <HomeDisclosure
          summary={
            signedCount === null ? t('home.signed.summaryLoading') : t('home.signed.summary', { count: signedCount })
          }
        >
          {signedDocuments}
        </HomeDisclosure>
      ) : null}
      {documents}
    </div>
  );
}

/** A card of home with its h2: for what the route brings from other features (the reports). */
export function HomeSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card aria-labelledby={id} className={styles.card}>
      <h2 id={id} className={styles.heading}>
        {title}
      </h2>
      {children}
    </Card>
  );
}

/**
 * The files the applicant sent, and the documents they can still send (features/documents brings the
 * cards), folded away: `sent` files so far.
 */
/** The hash of / that opens the document upload (portal.AppUploadPath). */
const DOCUMENTS_HASH = '#documents';

export function HomeDocuments({ sent, children }: { sent: number; children: ReactNode }) {
  // /#documents (a service waiting on the applicant links here: docs/api.md) opens the upload and
  // takes the reader to it.
  const { hash } = useLocation();
  const details = useRef<HTMLDetailsElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (hash !== DOCUMENTS_HASH || !details.current) return;
    details.current.open = true;
    heading.current?.focus();
  }, [hash]);
  return (
    <HomeDisclosure summary={t('home.documents.summary', { count: sent })} ref={details}>
      <section aria-labelledby="home-documents-title" className={styles.documents}>
        <h2 id="home-documents-title" className={styles.heading} ref={heading} tabIndex={-1}>
          {t('home.documents.title')}
        </h2>
        <p className={styles.muted}>{t('home.documents.text')}</p>
        {children}
      </section>
    </HomeDisclosure>
  );
}
