// /adverse-action: the applicant's adverse-action notice (FCRA section 604(b)(3)). The pre-adverse
// notice says in plain words what it means, shows the employer's note, the report, how to respond
// and the waiting period in business days (the server counts them); the final notice says the
// decision, the applicant's rights and who to contact. Both end with the Summary of Rights.
import '../lib/messages';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import buttonStyles from '@/components/ui/button.module.css';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadFailed } from '@/components/load-failed/load-failed';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { raiseChatSelected } from '@/lib/app-events';
import { config } from '@/lib/config';
import { useCompanySettings, useCurrentUser } from '@/lib/current-user';
import { headingsBelow } from '@/lib/document-html';
import { longDate } from '@/lib/format-date';
import { useFocusTitle } from '@/lib/focus-title';
import { t } from '@/lib/i18n';
import { useAdverseAction, type AdverseAction } from '../api/get-adverse-action';
import { noticeDate, waitingPeriodText } from '../lib/countdown';
import styles from './adverse-action.module.css';

function Section({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id} className={className ?? styles.card}>
      <h2 id={id} className={styles.heading}>
        {title}
      </h2>
      {children}
    </Card>
  );
}

/** The employer's own words, when it wrote some. */
function Note({ id, title, text }: { id: string; title: string; text: string }) {
  if (!text) return null;
  return (
    <Section id={id} title={title}>
      <p className={styles.note}>{text}</p>
    </Section>
  );
}

/** The sample Summary of Rights from the server, folded away; its headings below the page's. */
function SummaryOfRights({ html }: { html: string }) {
  return (
    <Section id="adverse-rights-title" title={t('adverse.rights.title')}>
      <details className={styles.rights}>
        <summary>{t('adverse.rights.toggle')}</summary>
        <div className={styles.rightsBody} dangerouslySetInnerHTML={{ __html: headingsBelow(html, 2) }} />
      </details>
    </Section>
  );
}

function Respond({ company }: { company: string }) {
  const settings = useCompanySettings();
  const chat = config.features.subjectChat && settings?.preferences.company_subject_chat === true;
  const provider = config.brand.name;
  return (
    <Section id="adverse-respond-title" title={t('adverse.respond.title')}>
      <p className={styles.plain}>{t('adverse.respond.intro')}</p>
      <ul className={styles.ways}>
        <li className={styles.way}>
          <Link className={styles.wayTitle} to={paths.disputeNew.getHref()}>
            {t('adverse.respond.dispute')}
          </Link>
          <span className={styles.muted}>{t('adverse.respond.disputeHint', { provider })}</span>
        </li>
        <li className={styles.way}>
          <Link className={styles.wayTitle} to={paths.additionalDocuments.getHref()}>
            {t('adverse.respond.send')}
          </Link>
          <span className={styles.muted}>{t('adverse.respond.sendHint')}</span>
        </li>
        <li className={styles.way}>
          <span className={styles.wayTitle}>{t('adverse.respond.contact', { company })}</span>
          {chat ? (
            <>
              <span className={styles.muted}>{t('adverse.respond.chatHint')}</span>
              <div className={styles.actions}>
                <Button variant="secondary" onClick={(event) => raiseChatSelected(event.currentTarget)}>
                  {t('adverse.respond.chat', { company })}
                </Button>
              </div>
            </>
          ) : (
            <span className={styles.muted}>{t('adverse.respond.direct', { company })}</span>
          )}
        </li>
      </ul>
    </Section>
  );
}

/** The services the decision would rest on, by the names the applicant knows (a code the package lacks as is). */
function useServiceNames(codes: string[]): string {
  const services = useCurrentUser()?.packageServices ?? [];
  return codes.map((code) => services.find((s) => s.code === code)?.name ?? code).join(', ');
}

function PreNotice({ notice }: { notice: AdverseAction }) {
  const company = notice.companyName;
  const basedOn = useServiceNames(notice.basedOn);
  const ends = noticeDate(notice.endsOn);
  return (
    <>
      <PageHeader
        titleId={TITLE_ID}
        eyebrow={t('adverse.pre.eyebrow')}
        title={t('adverse.pre.title', { company })}
        description={t('adverse.pre.description', { company })}
      />
      <Section
        id="adverse-countdown-title"
        title={t('adverse.countdown.label')}
        className={notice.businessDaysLeft > 0 ? styles.urgent : styles.card}
      >
        <p className={styles.countdown}>{waitingPeriodText(notice.businessDaysLeft, notice.endsOn)}</p>
        <p className={styles.muted}>
          {t('adverse.pre.sent', { date: longDate(notice.sentAt) })} · {t('adverse.countdown.hint')}
        </p>
      </Section>
      <Section id="adverse-meaning-title" title={t('adverse.meaning.title')}>
        <p className={styles.plain}>{t('adverse.meaning.decision', { company })}</p>
        <p className={styles.plain}>{t('adverse.meaning.chance')}</p>
        <p className={styles.plain}>{t('adverse.meaning.wait', { company, date: ends })}</p>
      </Section>
      <Note id="adverse-note-title" title={t('adverse.note.title', { company })} text={notice.note} />
      <Section id="adverse-report-title" title={t('adverse.report.title')}>
        <p className={styles.plain}>{t('adverse.report.text')}</p>
        {notice.basedOn.length > 0 ? (
          <p className={styles.muted}>{t('adverse.report.basedOn', { services: basedOn })}</p>
        ) : null}
        <div className={styles.actions}>
          <Link className={`${buttonStyles.button} ${buttonStyles.primary}`} to={paths.report.getHref()}>
            {t('adverse.report.link')}
          </Link>
        </div>
      </Section>
      <Respond company={company} />
    </>
  );
}

function FinalNotice({ notice }: { notice: AdverseAction }) {
  const company = notice.companyName;
  const { name: provider, supportEmail, supportPhone } = config.brand;
  return (
    <>
      <PageHeader
        titleId={TITLE_ID}
        eyebrow={t('adverse.final.eyebrow')}
        title={t('adverse.final.title', { company })}
        description={t('adverse.final.description', { company })}
      />
      <Section id="adverse-provider-title" title={t('adverse.final.rightsTitle')} className={styles.decided}>
        <p className={styles.plain}>{t('adverse.final.provider', { provider })}</p>
        <ul className={styles.plain}>
          <li>{t('adverse.final.copy', { provider })}</li>
          <li>
            <Link to={paths.disputeNew.getHref()}>{t('adverse.final.dispute')}</Link>
          </li>
        </ul>
        {notice.finalAt ? (
          <p className={styles.muted}>{t('adverse.final.sent', { date: longDate(notice.finalAt) })}</p>
        ) : null}
      </Section>
      <Note id="adverse-final-note-title" title={t('adverse.final.note', { company })} text={notice.finalNote} />
      <Section id="adverse-contact-title" title={t('adverse.final.contactTitle', { provider })}>
        <dl className={styles.contact}>
          {supportEmail ? (
            <>
              <dt>{t('adverse.final.email')}</dt>
              <dd>
                <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
              </dd>
            </>
          ) : null}
          {supportPhone ? (
            <>
              <dt>{t('adverse.final.phone')}</dt>
              <dd>
                <a href={`tel:${supportPhone.replace(/[^\d+]/g, '')}`}>{supportPhone}</a>
              </dd>
            </>
          ) : null}
        </dl>
        <div className={styles.actions}>
          <Link className={`${buttonStyles.button} ${buttonStyles.secondary}`} to={paths.report.getHref()}>
            {t('adverse.report.link')}
          </Link>
        </div>
      </Section>
    </>
  );
}

const TITLE_ID = 'adverse-action-title';

export function AdverseActionPage() {
  const notice = useAdverseAction();
  // Each state has its own h1 (loading, the notice, the final notice): the one shown takes focus.
  useFocusTitle(TITLE_ID, notice.data?.state ?? notice.status);
  let body: ReactNode;
  if (notice.isError) {
    body = (
      <>
        <PageHeader titleId={TITLE_ID} title={t('common.route.adverseAction')} />
        <LoadFailed
          title={t('adverse.loadFailedTitle')}
          text={t('adverse.loadFailed', { reason: errorMessageOf(notice.error) })}
          retry={notice.refetch}
        />
      </>
    );
  } else if (notice.isPending) {
    body = (
      <>
        <PageHeader titleId={TITLE_ID} title={t('common.route.adverseAction')} />
        <Card>
          <Skeleton lines={6} label={t('adverse.loading')} />
        </Card>
      </>
    );
  } else if (!notice.data) {
    body = (
      <>
        <PageHeader titleId={TITLE_ID} title={t('adverse.none.title')} description={t('adverse.none.text')} />
        <p>
          <Link to={paths.home.getHref()}>{t('adverse.none.home')}</Link>
        </p>
      </>
    );
  } else {
    body = (
      <>
        {notice.data.state === 'final' ? <FinalNotice notice={notice.data} /> : <PreNotice notice={notice.data} />}
        <SummaryOfRights html={notice.data.summaryOfRights} />
      </>
    );
  }
  return <div className={styles.page}>{body}</div>;
}
