// /profile, the applicant's home after setup and before submission: what is
// still to do before the profile can be submitted, what was ordered, and whom
// to ask. The route module passes in the signed documents (features/legal), since
// features never import one another.
import '@/features/profile/lib/messages';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import buttonStyles from '@/components/ui/button.module.css';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { config } from '@/lib/config';
import { useCurrentUser } from '@/lib/current-user';
import { t } from '@/lib/i18n';
import { ScreeningStatus } from '@/components/screening-status/screening-status';
import { nextPagePath, useSubject, type ChecklistPage } from '@/lib/subject';
import { orderStatusPhrase } from '@/lib/order-status';
import { useOrderDetails, useProfile, type OrderDetail, type ProfileOrder } from '../api/profile-api';
import { LoadFailed } from './load-failed';
import styles from './profile-hub.module.css';
import { currentLocale } from '@/lib/locale';

/** A link that looks like the design system's primary button: it navigates, so it is a link. */
const primaryLink = `${buttonStyles.button} ${buttonStyles.primary}`;

function NextStep({ pages, ready }: { pages: ChecklistPage[]; ready: boolean }) {
  const next = nextPagePath(pages, '');
  const page = pages.find((p) => p.path === next);
  return (
    <Card className={styles.next} aria-labelledby="hub-next-title">
      <h2 id="hub-next-title" className={styles.heading}>
        {t('profile.next.title')}
      </h2>
      <p>{ready || !page ? t('profile.next.readyText') : t('profile.next.continueText')}</p>
      <Link className={primaryLink} to={next}>
        {ready || !page ? t('profile.next.review') : t('profile.next.continue', { title: page.title })}
      </Link>
    </Card>
  );
}

function Checklist({ pages }: { pages: ChecklistPage[] }) {
  const missing = pages.filter((p) => !p.complete);
  return (
    <Card aria-labelledby="hub-checklist-title">
      <h2 id="hub-checklist-title" className={styles.heading}>
        {t('profile.checklist.title')}
      </h2>
      {missing.length === 0 ? (
        <p>{t('profile.checklist.allDone')}</p>
      ) : (
        <ul className={styles.checklist}>
          {missing.map((page) => (
            <li key={page.id} className={styles.checkItem}>
              <Link to={page.path} className={styles.pageLink}>
                {page.title}
              </Link>
              {page.required ? null : <span className={styles.muted}> {t('profile.checklist.optional')}</span>}
              {page.missing.length > 0 ? (
                <ul className={styles.missing}>
                  {page.missing.map((sentence) => (
                    <li key={sentence}>{sentence}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function OrderItem({
  order,
  detail,
  orderServices,
}: {
  order: ProfileOrder;
  detail: OrderDetail | undefined;
  orderServices?: OrderServicesSlot;
}) {
  const created = detail?.createdAt ? new Date(detail.createdAt) : null;
  return (
    <li className={styles.order}>
      <h3 className={styles.orderTitle}>
        {detail?.packageName
          ? t('profile.orders.titleWithPackage', { id: order.id, name: detail.packageName })
          : t('profile.orders.title', { id: order.id })}
      </h3>
      <p className={styles.muted}>
        {orderStatusPhrase(detail?.statusId ?? order.statusId)}
        {created && !Number.isNaN(created.getTime())
          ? ` · ${t('profile.orders.created', { date: created.toLocaleDateString(currentLocale(), { dateStyle: 'long' }) })}`
          : ''}
      </p>
      {orderServices?.(order.id)}
    </li>
  );
}

/** An order's services (features/screening), which the route module brings. */
type OrderServicesSlot = (orderId: number) => ReactNode;

function Orders({ orders, orderServices }: { orders: ProfileOrder[]; orderServices?: OrderServicesSlot }) {
  const details = useOrderDetails(orders);
  return (
    <Card aria-labelledby="hub-orders-title">
      <h2 id="hub-orders-title" className={styles.heading}>
        {t('profile.orders.heading')}
      </h2>
      {orders.length === 0 ? (
        <p>{t('profile.orders.none')}</p>
      ) : (
        <ul className={styles.orders}>
          {orders.map((order) => (
            <OrderItem key={order.id} order={order} detail={details.get(order.id)} orderServices={orderServices} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function Contacts() {
  const company = useCurrentUser()?.company.name;
  const { brand } = config;
  return (
    <Card aria-labelledby="hub-contacts-title">
      <h2 id="hub-contacts-title" className={styles.heading}>
        {t('profile.contacts.title')}
      </h2>
      <dl className={styles.contacts}>
        {company ? (
          <div>
            <dt>{t('profile.contacts.employer')}</dt>
            <dd>
              {company}
              <span className={styles.muted}> {t('profile.contacts.employerHint')}</span>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t('profile.contacts.provider')}</dt>
          <dd>
            {brand.name}
            {brand.supportEmail ? (
              <>
                <br />
                <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
              </>
            ) : null}
            {brand.supportPhone ? (
              <>
                <br />
                <a href={`tel:${brand.supportPhone.replace(/[^\d+]/g, '')}`}>{brand.supportPhone}</a>
              </>
            ) : null}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/**
 * The route module passes in what other features own: the documents and forms the employer asks for
 * (cards of their own), the signed legal documents (put in a card here) and each order's services.
 */
export function ProfileHub({
  documents,
  signedDocuments,
  orderServices,
  reminders,
}: {
  documents?: ReactNode;
  signedDocuments?: ReactNode;
  orderServices?: OrderServicesSlot;
  /** Notes on what the applicant put off (the Welcome step's "I'll find this later"), above the checklist. */
  reminders?: ReactNode;
}) {
  const user = useCurrentUser();
  const profile = useProfile();
  const subject = useSubject();
  const firstName = user?.subject.personalInformation?.firstName || user?.subject.firstName || user?.subject.first_name;
  const title = firstName ? t('profile.greeting', { firstName }) : t('profile.greetingNoName');

  const failed = profile.error ?? subject.error;
  if (failed) {
    return (
      <div className={styles.page}>
        <PageHeader title={title} />
        <LoadFailed text={t('profile.loadFailed')} queries={[profile, subject]} />
        {/* Documents and what was signed do not depend on the profile: they stay within reach. */}
        {documents}
        {signedDocuments ? <Card className={styles.signed}>{signedDocuments}</Card> : null}
        <Contacts />
      </div>
    );
  }

  if (!profile.data || !subject.data) {
    return (
      <div className={styles.page}>
        <PageHeader title={title} />
        <Skeleton lines={6} label={t('profile.loading')} />
      </div>
    );
  }

  // The hub is only reached before submission (spec section 2: status setup-complete), so the screening
  // has not started: the line says what is left, never "Pending" as though it were under way.
  const toDo = subject.data.pages.filter((p) => p.required && !p.complete).map((p) => p.title);
  return (
    <div className={styles.page}>
      <PageHeader title={title} description={t('profile.intro')} />
      <ScreeningStatus
        status="not-submitted"
        label={t('profile.status.label')}
        text={t('profile.status.notSubmitted')}
        hint={
          toDo.length > 0 ? t('profile.status.stillToDo', { pages: toDo.join(', ') }) : t('profile.status.readyHint')
        }
      />
      <NextStep pages={subject.data.pages} ready={subject.data.readyToSubmit} />
      {reminders}
      <Checklist pages={subject.data.pages} />
      <Orders orders={profile.data.orders} orderServices={orderServices} />
      {documents}
      {signedDocuments ? <Card className={styles.signed}>{signedDocuments}</Card> : null}
      <Contacts />
    </div>
  );
}
