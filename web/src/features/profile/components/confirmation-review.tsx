// /confirmation: everything the applicant entered, read only and grouped the
// way the checklist is, each group with a link to change it; what is still
// missing; and the button that starts identity verification once the server
// says everything required is there (readyToSubmit).
import '@/features/profile/lib/messages';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { isVisible } from '@/lib/field-rules';
import { moveSubjectStatus } from '@/lib/auth';
import { useCurrentUser } from '@/lib/current-user';
import { t, type MessageKey } from '@/lib/i18n';
import { useCountries, useStates } from '@/lib/lookups';
import {
  aliasFields,
  useServices,
  useSubject,
  type Address,
  type Alias,
  type ChecklistPage,
  type DataAlias,
  type FieldDefinition,
  type FieldValue,
  type ServiceEntry,
  type SubjectData,
} from '@/lib/subject';
import { statusIds } from '@/lib/subject-status';
import type { PersonalInformation } from '@/types/api';
import { LoadFailed } from './load-failed';
import styles from './confirmation-review.module.css';

const dataAliases: readonly string[] = ['education', 'employment', 'credential', 'professional'];

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.row}>
      <dt>{label}</dt>
      <dd>{value || '—'}</dd>
    </div>
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Only the last four digits ever show; the server sends no more, and a full number is cut down all the same. */
function ssnShown(info: PersonalInformation): string {
  if (info.noSSN === true) return t('profile.review.noSsn');
  const lastFour = text(info.ssnLastFour) || text(info.ssn).replace(/\D/g, '').slice(-4);
  return lastFour ? t('profile.review.ssnEnding', { lastFour }) : '';
}

function PersonalSummary() {
  const info = useCurrentUser()?.subject.personalInformation;
  if (!info) return <p>{t('profile.review.personalMissing')}</p>;
  const name = [info.firstName, info.middleName, info.lastName, text(info.nameSuffix)].map(text).filter(Boolean);
  const phone = [text(info.daytimeDialCode) && `+${text(info.daytimeDialCode)}`, text(info.daytimePhoneNumber)];
  return (
    <dl className={styles.list}>
      <Row label={t('profile.review.name')} value={name.join(' ')} />
      <Row label={t('profile.review.dob')} value={dateShown(text(info.dob))} />
      <Row label={t('profile.review.ssn')} value={ssnShown(info)} />
      <Row label={t('profile.review.phone')} value={phone[1] ? phone.filter(Boolean).join(' ') : ''} />
    </dl>
  );
}

/** `answered`: the list was saved (an empty one says "no other names"); else nothing was entered yet. */
function AliasesSummary({ aliases, answered }: { aliases: Alias[]; answered: boolean }) {
  if (aliases.length === 0 && !answered) return <p>{t('profile.review.nothingYet')}</p>;
  if (aliases.length === 0) return <p>{t('profile.review.noneToReport', { what: t('profile.review.otherNames') })}</p>;
  return (
    <ul className={styles.entries}>
      {aliases.map((alias, i) => (
        <li key={alias.id ?? i}>
          <dl className={styles.list}>
            <Row
              label={t('profile.review.name')}
              value={[alias.firstName, alias.middleName, alias.lastName, alias.suffix]
                .map(text)
                .filter(Boolean)
                .join(' ')}
            />
            <Row
              label={t('profile.review.nameType')}
              value={aliasTypes[alias.type] ? t(aliasTypes[alias.type]) : alias.type}
            />
            <Row label={t('profile.review.period')} value={period(alias.from, alias.to)} />
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** "2019-11" as "Nov 2019"; anything else as written. */
function monthShown(value: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

function period(from: string, to: string, current = false): string {
  if (!from && !to) return '';
  return t('profile.review.fromTo', {
    from: from ? monthShown(from) : '…',
    to: current ? t('profile.review.present') : to ? monthShown(to) : '…',
  });
}

const aliasTypes: Record<string, MessageKey> = {
  maiden: 'profile.review.aliasMaiden',
  previous: 'profile.review.aliasPrevious',
  nickname: 'profile.review.aliasNickname',
  other: 'profile.review.aliasOther',
};

function AddressesSummary({ addresses }: { addresses: Address[] }) {
  // Everyone lives somewhere: an empty history is one not entered yet.
  if (addresses.length === 0) return <p>{t('profile.review.nothingYet')}</p>;
  return (
    <ul className={styles.entries}>
      {addresses.map((address, i) => (
        <li key={address.id ?? i}>
          <dl className={styles.list}>
            <Row
              label={t('profile.review.address')}
              value={[
                address.street1,
                address.street2,
                address.city,
                // US states are stored as "US-TX"; the code alone reads as an address does.
                address.country === 'US' ? address.state.replace(/^US-/, '') : address.state,
                address.zip,
                address.country,
              ]
                .map(text)
                .filter(Boolean)
                .join(', ')}
            />
            <Row label={t('profile.review.period')} value={period(address.from, address.to, address.current)} />
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** "2021-03-01" as "Mar 1, 2021"; anything else as written. */
function dateShown(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

/** Names for the codes entries store: states ("US-TX") and countries ("US"). */
type PlaceNames = { state: (code: string) => string; country: (code: string) => string };

function usePlaceNames(): PlaceNames {
  const states = useStates().data;
  const countries = useCountries().data;
  return {
    // Until the lookups arrive (or when they fail) a US state reads as its short code.
    state: (code) => states?.find((s) => s.code === code)?.name ?? code.replace(/^US-/, ''),
    country: (code) => countries?.find((c) => c.countryCode === code)?.countryName ?? code,
  };
}

/** A value as the applicant chose it: the option's label, dates and months in words, places by name. */
function valueShown(field: FieldDefinition, value: FieldValue | undefined, places: PlaceNames): string {
  if (typeof value === 'boolean') return value ? t('profile.review.yes') : t('profile.review.no');
  const raw = text(value);
  const option = field.options.find((o) => o.value === raw);
  if (option) return option.label;
  if (field.type === 'date') return dateShown(raw);
  if (field.type === 'month') return monthShown(raw);
  if (field.type === 'state' || field.reference === 'states') return places.state(raw);
  if (field.type === 'country' || field.reference === 'countries') return places.country(raw);
  return raw;
}

function EntriesSummary({
  title,
  entries,
  fields,
  none,
}: {
  title: string;
  entries: ServiceEntry[];
  fields: FieldDefinition[];
  none: boolean;
}) {
  const places = usePlaceNames();
  if (none) return <p>{t('profile.review.noneToReport', { what: title.toLowerCase() })}</p>;
  if (entries.length === 0) return <p>{t('profile.review.nothingYet')}</p>;
  return (
    <ul className={styles.entries}>
      {entries.map((entry, i) => {
        // Hidden fields (visibleWhen) and fields left empty have nothing to review.
        const shown = fields.filter((f) => entry[f.api] !== undefined && entry[f.api] !== '' && isVisible(f, entry));
        return (
          <li key={entry.id ?? i}>
            <dl className={styles.list}>
              {shown.map((field) => (
                <Row key={field.api} label={field.name} value={valueShown(field, entry[field.api], places)} />
              ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

function GroupBody({
  page,
  subject,
  fields,
}: {
  page: ChecklistPage;
  subject: SubjectData;
  fields: FieldDefinition[];
}) {
  if (page.id === 'personal') return <PersonalSummary />;
  if (page.id === 'aliases') return <AliasesSummary aliases={subject.aliases} answered={page.complete} />;
  if (page.id === 'addresses') return <AddressesSummary addresses={subject.addresses} />;
  if (dataAliases.includes(page.id)) {
    const alias = page.id as DataAlias;
    return (
      <EntriesSummary
        title={page.title}
        entries={(subject.services[alias] ?? []).filter((e) => e.data_available !== false)}
        fields={fields}
        none={Boolean(subject.noDataAvailable?.[alias])}
      />
    );
  }
  if (page.id === 'dot-releases') return <ReleasesSummary subject={subject} />;
  return null;
}

/** Each DOT-regulated employer's release and whether it is signed (they are signed on the employment page). */
function ReleasesSummary({ subject }: { subject: SubjectData }) {
  return (
    <dl className={styles.list}>
      {subject.dotReleases.map((r) => (
        <Row
          key={r.entryId}
          label={r.employerName}
          value={
            r.signed && r.signedAt
              ? t('profile.review.releaseSignedOn', {
                  date: new Date(r.signedAt).toLocaleDateString('en-US', { dateStyle: 'long' }),
                })
              : t('profile.review.releaseNotSigned')
          }
        />
      ))}
    </dl>
  );
}

function Missing({ subject }: { subject: SubjectData }) {
  const pages = subject.pages.filter((p) => p.required && !p.complete);
  const releases = subject.dotReleases.filter((r) => !r.signed);
  return (
    <Alert tone="warning" title={t('profile.review.notReadyTitle')}>
      <ul className={styles.missing}>
        {pages.map((page) => (
          <li key={page.id}>
            <Link to={page.path}>{page.title}</Link>
            {page.missing.length > 0 ? `: ${page.missing.join(' ')}` : ''}
          </li>
        ))}
        {releases.map((release) => (
          <li key={release.entryId}>{t('profile.review.dotRelease', { employer: release.employerName })}</li>
        ))}
      </ul>
    </Alert>
  );
}

export function ConfirmationReview() {
  const subject = useSubject();
  const services = useServices();
  const navigate = useNavigate();
  const [submit, setSubmit] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const failed = subject.error ?? services.error;
  if (failed) {
    return (
      <div className={styles.page}>
        <PageHeader title={t('profile.review.title')} />
        <LoadFailed text={errorMessageOf(failed)} queries={[subject, services]} />
      </div>
    );
  }
  if (!subject.data || !services.data) {
    return (
      <div className={styles.page}>
        <PageHeader title={t('profile.review.title')} />
        <Skeleton lines={8} label={t('profile.review.loading')} />
      </div>
    );
  }

  const data = subject.data;
  const ready = data.readyToSubmit;
  const start = async () => {
    setSubmit({ busy: true, error: null });
    try {
      await moveSubjectStatus(statusIds['idv-started']);
      await navigate(paths.idv.getHref());
    } catch (error) {
      setSubmit({ busy: false, error: errorMessageOf(error) });
    }
  };

  return (
    <div className={styles.page}>
      <PageHeader title={t('profile.review.title')} description={t('profile.review.intro')} />
      {ready ? null : <Missing subject={data} />}
      {data.pages.map((page) => (
        <Card key={page.id} aria-labelledby={`review-${page.id}`}>
          <div className={styles.groupHeader}>
            <h2 id={`review-${page.id}`} className={styles.heading}>
              {page.title}
              {page.complete ? null : <span className={styles.incomplete}> {t('profile.review.incomplete')}</span>}
            </h2>
            <Link to={page.path} aria-label={t('profile.review.editLabel', { title: page.title })}>
              {t('profile.review.edit')}
            </Link>
          </div>
          <GroupBody page={page} subject={data} fields={aliasFields(services.data, page.id)} />
        </Card>
      ))}
      <Card aria-labelledby="review-submit">
        <h2 id="review-submit" className={styles.heading}>
          {t('profile.review.submitTitle')}
        </h2>
        <p>{ready ? t('profile.review.readyText') : t('profile.review.notReadyText')}</p>
        {submit.error ? (
          <Alert focusOnMount>
            <p>{submit.error}</p>
          </Alert>
        ) : null}
        <Button onClick={() => void start()} disabled={!ready} loading={submit.busy}>
          {t('profile.review.start')}
        </Button>
      </Card>
    </div>
  );
}
