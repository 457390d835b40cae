// / (finalization-complete): the end of the applicant's part. It says so first, then what happens
// next, where the screening stands with its orders and services, and everything the applicant may
// come back for: the collection site, the payment receipt, what they signed, the reports and the
// documents they can still send. The route passes in what other features own, since features never
// import one another.
import '@/features/home/lib/messages';
import type { ReactNode } from 'react';
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
import { orderStatusPhrase } from '@/lib/subject-status';
import { LoadFailed } from '@/components/load-failed/load-failed';
import styles from './home.module.css';

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

function longDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString('en-US', { dateStyle: 'long' });
}

function WhatHappensNext({ company, drugTest }: { company: string; drugTest: boolean }) {
  return (
    <Card aria-labelledby="home-next-title" className={styles.next}>
      <h2 id="home-next-title" className={styles.heading}>
        {t('home.next.title')}
      </h2>
      <ol className={styles.steps}>
        <li>{t('home.next.checks', { provider: config.brand.name })}</li>
        {drugTest ? <li>{t('home.next.site')}</li> : null}
        <li>{t('home.next.contact')}</li>
        <li>{t('home.next.result', { company })}</li>
      </ol>
      <p className={styles.muted}>{t('home.next.time')}</p>
    </Card>
  );
}

function Screening() {
  const profile = useScreeningProfile();
  const services = useCurrentUser()?.packageServices ?? [];
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
      {services.length > 0 ? (
        <>
          <h3 className={styles.subheading}>{t('home.services.title')}</h3>
          <ul className={styles.services}>
            {services.map((service) => (
              <li key={service.id}>{service.name}</li>
            ))}
          </ul>
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
  /** The chosen collection site's card (features/collection-site); it renders nothing when none was chosen. */
  collectionSite?: ReactNode;
  /** What was signed, with links to the print pages (features/legal). */
  signedDocuments?: ReactNode;
  /** The reports the screening attached (features/documents). */
  reports?: ReactNode;
  /** The document upload still open to the applicant (features/documents). */
  documents?: ReactNode;
};

export function HomePage({ collectionSite, signedDocuments, reports, documents }: HomePageProps) {
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
      <WhatHappensNext company={company ?? config.brand.name} drugTest={user ? siteSelectionApplies(user) : false} />
      <Screening />
      {collectionSite}
      <Receipt />
      {signedDocuments ? <Card className={styles.signed}>{signedDocuments}</Card> : null}
      {reports}
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

/** The documents the applicant can still send (features/documents brings the cards). */
export function HomeDocuments({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="home-documents-title" className={styles.documents}>
      <h2 id="home-documents-title" className={styles.heading}>
        {t('home.documents.title')}
      </h2>
      <p className={styles.muted}>{t('home.documents.text')}</p>
      {children}
    </section>
  );
}
