// /confirmation, "Review and submit" (GOV.UK's check answers): everything that
// will be submitted, read only and grouped the way the checklist is, each item
// with a "Change" link that leads to its page and, once saved, back here; what
// is still missing; and the declaration that must be made before identity
// verification starts, since starting locks the profile.
import '@/features/profile/lib/messages';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { errorMessageOf } from '@/lib/api-client';
import { isVisible } from '@/lib/field-rules';
import { paymentRequired, siteSelectionApplies } from '@/lib/finalization';
import { moveSubjectStatus } from '@/lib/auth';
import { useCurrentUser } from '@/lib/current-user';
import { formatAmount } from '@/lib/payment';
import { t, type MessageKey } from '@/lib/i18n';
import { useCountries, useGenders, useStates } from '@/lib/lookups';
import {
  aliasFields,
  changeHref,
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
import { longDate } from '@/lib/format-date';
import { currentLocale } from '@/lib/locale';

/** A document type the employer asks for, with the names of the files sent for it. */
export type SentDocumentType = { title: string; files: string[] };
/** A form that applies, and when it was sent (null: not yet). */
export type SentForm = { title: string; submittedAt: string | null };

type ConfirmationReviewProps = {
  /** The documents part (features/documents), undefined while it loads. */
  documents?: SentDocumentType[];
  /** The forms part (features/pdf-forms), undefined while it loads. */
  forms?: SentForm[];
  /** The signed legal documents (features/legal), shown as they are. */
  signedDocuments?: ReactNode;
};

const dataAliases: readonly string[] = ['education', 'employment', 'credential', 'professional'];

const DECLARATION_ID = 'declaration';

/** What a "Change" link names for a screen reader: "Change" alone would be one of many alike. */
type Change = { path: string; thing: string };

function ChangeLink({ path, thing, label = t('profile.review.change') }: Change & { label?: string }) {
  return (
    <Link to={changeHref(path)}>
      {label} <span className="visually-hidden">{thing}</span>
    </Link>
  );
}

/** One row of a summary list: what, the answer, and (on an item's first row) the way to change it. */
function Row({ label, value, change }: { label: string; value: ReactNode; change?: Change & { label?: string } }) {
  return (
    <div className={styles.row}>
      <dt>{label}</dt>
      <dd>{value || '—'}</dd>
      <dd className={styles.action}>{change ? <ChangeLink {...change} /> : null}</dd>
    </div>
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Only the last four digits ever show; the server sends no more, and a full number is cut down all the same. */
function ssnShown(info: PersonalInformation): string {
  if (info.noSsnFlag === true || info.noSSN === true) return t('profile.review.noSsn');
  const lastFour = text(info.ssnLastFour) || text(info.ssn).replace(/\D/g, '').slice(-4);
  return lastFour ? t('profile.review.ssnEnding', { lastFour }) : '';
}

/** A North American number as it is written there, (202) 456-1111; others after their dial code. */
function phoneShown(dialCode: unknown, number: unknown): string {
  const digits = text(number).replace(/\D/g, '');
  if (!digits) return '';
  const dial = text(dialCode) || '1';
  if (dial === '1' && digits.length === 10) return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  return `+${dial} ${text(number)}`;
}

const notifyBy: Record<string, MessageKey> = {
  email: 'profile.review.notifyEmail',
  text: 'profile.review.notifyText',
  both: 'profile.review.notifyBoth',
};

type NotificationMethod = { type?: string; email?: string; text?: string };

function notificationShown(method: NotificationMethod | undefined): string {
  const key = method?.type ? notifyBy[method.type] : undefined;
  return key ? t(key, { email: text(method?.email), text: text(method?.text) }) : '';
}

type License = { number?: string; regionName?: string };

function PersonalSummary({ places }: { places: PlaceNames }) {
  const info = useCurrentUser()?.subject.personalInformation;
  const genders = useGenders().data;
  const path = paths.personal.getHref();
  if (!info) {
    return (
      <dl className={styles.list}>
        <Row
          label={t('profile.review.personalTitle')}
          value={t('profile.review.personalMissing')}
          change={{ path, thing: t('profile.review.personalTitle') }}
        />
      </dl>
    );
  }
  const name = [info.firstName, info.middleName, info.lastName, text(info.suffix) || text(info.nameSuffix)]
    .map(text)
    .filter(Boolean);
  const gender = text(info.gender);
  const licence = text(info.driversLicense) || text(info.driversLicenseNumber);
  const noLicence = info.noDriversLicenseFlag === true || info.noDriversLicenseNumber === true;
  const licenses = Array.isArray(info.licenses) ? (info.licenses as License[]) : [];
  const idCountry = text(info.identificationCountry);
  const rows: { label: string; value: string }[] = [
    { label: t('profile.review.name'), value: name.join(' ') },
    { label: t('profile.review.dob'), value: dateShown(text(info.dob)) },
    { label: t('profile.review.ssn'), value: ssnShown(info) },
    ...(text(info.mothersMaidenName)
      ? [{ label: t('profile.review.mothersMaidenName'), value: text(info.mothersMaidenName) }]
      : []),
    ...(gender
      ? [
          {
            label: t('profile.review.gender'),
            value: genders?.find((g) => g.code === gender || String(g.id) === gender)?.name ?? gender,
          },
        ]
      : []),
    ...(idCountry && text(info.countryIdentificationNumber)
      ? [
          {
            label: t('profile.review.nationalId'),
            value: `${text(info.countryIdentificationNumber)} (${places.country(idCountry)})`,
          },
        ]
      : []),
    { label: t('profile.review.phone'), value: phoneShown(info.daytimeDialCode, info.daytimePhoneNumber) },
    ...(text(info.eveningPhoneNumber)
      ? [{ label: t('profile.review.eveningPhone'), value: phoneShown(info.eveningDialCode, info.eveningPhoneNumber) }]
      : []),
    {
      label: t('profile.review.driversLicense'),
      value: noLicence
        ? t('profile.review.noDriversLicense')
        : [licence, text(info.driversLicenseState) && places.state(text(info.driversLicenseState))]
            .filter(Boolean)
            .join(', '),
    },
    {
      label: t('profile.review.cdl'),
      value: info.cdlRequired === true ? t('profile.review.yes') : t('profile.review.no'),
    },
    ...licenses.map((l, i) => ({
      label: t('profile.review.license', { n: i + 1 }),
      value: [text(l.number), text(l.regionName)].filter(Boolean).join(', '),
    })),
    ...(text(info.drugZip) ? [{ label: t('profile.review.drugZip'), value: text(info.drugZip) }] : []),
    {
      label: t('profile.review.notification'),
      value: notificationShown(info.primaryNotificationMethod as NotificationMethod | undefined),
    },
  ];
  return (
    <dl className={styles.list}>
      {rows.map((row) => (
        <Row key={row.label} {...row} change={{ path, thing: row.label.toLowerCase() }} />
      ))}
    </dl>
  );
}

/** The row of a list with nothing in it: nothing to report, or nothing entered yet. */
function EmptyList({ page, none }: { page: ChecklistPage; none: boolean }) {
  return (
    <dl className={styles.list}>
      <Row
        label={page.title}
        value={none ? t('profile.review.noneToReport') : t('profile.review.nothingYet')}
        change={{ path: page.path, thing: page.title.toLowerCase() }}
      />
    </dl>
  );
}

const joined = (parts: unknown[]) => parts.map(text).filter(Boolean).join(' ');

/** `page.complete`: the list was saved (an empty one says "no other names"); else nothing was entered yet. */
function AliasesSummary({ page, aliases }: { page: ChecklistPage; aliases: Alias[] }) {
  if (aliases.length === 0) return <EmptyList page={page} none={page.complete} />;
  return (
    <ul className={styles.entries}>
      {aliases.map((alias, i) => {
        const name = joined([alias.firstName, alias.middleName, alias.lastName, alias.suffix]);
        return (
          <li key={alias.id ?? i}>
            <dl className={styles.list}>
              <Row
                label={t('profile.review.name')}
                value={name}
                change={{ path: page.path, thing: t('profile.review.otherName', { name }) }}
              />
              <Row
                label={t('profile.review.nameType')}
                value={aliasTypes[alias.type] ? t(aliasTypes[alias.type]) : alias.type}
              />
              <Row label={t('profile.review.period')} value={period(alias.from, alias.to)} />
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** "2019-11" as "Nov 2019"; anything else as written. */
function monthShown(value: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return date.toLocaleDateString(currentLocale(), { month: 'short', year: 'numeric', timeZone: 'UTC' });
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

function AddressesSummary({ page, addresses }: { page: ChecklistPage; addresses: Address[] }) {
  // Everyone lives somewhere: an empty history is one not entered yet.
  if (addresses.length === 0) return <EmptyList page={page} none={false} />;
  return (
    <ul className={styles.entries}>
      {addresses.map((address, i) => {
        const shown = [
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
          .join(', ');
        return (
          <li key={address.id ?? i}>
            <dl className={styles.list}>
              <Row
                label={t('profile.review.address')}
                value={shown}
                change={{ path: page.path, thing: t('profile.review.addressOf', { address: shown }) }}
              />
              <Row label={t('profile.review.period')} value={period(address.from, address.to, address.current)} />
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** "2021-03-01" as "Mar 1, 2021"; anything else as written. */
function dateShown(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toLocaleDateString(currentLocale(), { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
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
  page,
  entries,
  fields,
  none,
  places,
}: {
  page: ChecklistPage;
  entries: ServiceEntry[];
  fields: FieldDefinition[];
  none: boolean;
  places: PlaceNames;
}) {
  if (none || entries.length === 0) return <EmptyList page={page} none={none} />;
  return (
    <ul className={styles.entries}>
      {entries.map((entry, i) => {
        // Hidden fields (visibleWhen) and fields left empty have nothing to review.
        const shown = fields.filter((f) => entry[f.api] !== undefined && entry[f.api] !== '' && isVisible(f, entry));
        const thing = t('profile.review.entry', { title: page.title, n: i + 1 });
        return (
          <li key={entry.id ?? i}>
            <dl className={styles.list}>
              {shown.map((field, row) => (
                <Row
                  key={field.api}
                  label={field.name}
                  value={valueShown(field, entry[field.api], places)}
                  change={row === 0 ? { path: page.path, thing } : undefined}
                />
              ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** What was sent for each document type or form: one row each, "None sent" when nothing was. */
function SentSummary({ page, rows }: { page: ChecklistPage; rows: { title: string; sent: string }[] | undefined }) {
  if (!rows) return <Skeleton lines={2} label={t('profile.review.loading')} />;
  return (
    <dl className={styles.list}>
      {rows.map((row) => (
        <Row
          key={row.title}
          label={row.title}
          value={row.sent || t('profile.review.noneSent')}
          change={{ path: page.path, thing: row.title }}
        />
      ))}
    </dl>
  );
}

/** Each DOT-regulated employer's release and whether it is signed (they are signed on the employment page). */
function ReleasesSummary({ page, subject }: { page: ChecklistPage; subject: SubjectData }) {
  return (
    <dl className={styles.list}>
      {subject.dotReleases.map((r) => (
        <Row
          key={r.entryId}
          label={r.employerName}
          value={
            r.signed && r.signedAt
              ? t('profile.review.releaseSignedOn', { date: longDate(r.signedAt) })
              : t('profile.review.releaseNotSigned')
          }
          change={
            r.signed
              ? undefined
              : {
                  path: page.path,
                  label: t('profile.review.sign'),
                  thing: t('profile.review.dotRelease', { employer: r.employerName }),
                }
          }
        />
      ))}
    </dl>
  );
}

/** What a page still misses, in the server's sentences (a page this review has no summary of). */
function MissingSentences({ page }: { page: ChecklistPage }) {
  if (page.missing.length === 0) return <p>{t('profile.review.pageDone')}</p>;
  return (
    <ul className={styles.missing}>
      {page.missing.map((sentence) => (
        <li key={sentence}>{sentence}</li>
      ))}
    </ul>
  );
}

function GroupBody({
  page,
  subject,
  fields,
  places,
  documents,
  forms,
}: {
  page: ChecklistPage;
  subject: SubjectData;
  fields: FieldDefinition[];
  places: PlaceNames;
} & Pick<ConfirmationReviewProps, 'documents' | 'forms'>) {
  if (page.id === 'personal') return <PersonalSummary places={places} />;
  if (page.id === 'aliases') return <AliasesSummary page={page} aliases={subject.aliases} />;
  if (page.id === 'addresses') return <AddressesSummary page={page} addresses={subject.addresses} />;
  if (dataAliases.includes(page.id)) {
    const alias = page.id as DataAlias;
    return (
      <EntriesSummary
        page={page}
        entries={(subject.services[alias] ?? []).filter((e) => e.data_available !== false)}
        fields={fields}
        none={Boolean(subject.noDataAvailable?.[alias])}
        places={places}
      />
    );
  }
  if (page.id === 'additional-documents') {
    return <SentSummary page={page} rows={documents?.map((d) => ({ title: d.title, sent: d.files.join(', ') }))} />;
  }
  if (page.id === 'fillable-pdf-form') {
    const sentOn = (at: string | null) => (at ? t('profile.review.sentOn', { date: longDate(at) }) : '');
    return <SentSummary page={page} rows={forms?.map((f) => ({ title: f.title, sent: sentOn(f.submittedAt) }))} />;
  }
  if (page.id === 'dot-releases') return <ReleasesSummary page={page} subject={subject} />;
  return <MissingSentences page={page} />;
}

function Missing({ subject }: { subject: SubjectData }) {
  const pages = subject.pages.filter((p) => p.required && !p.complete);
  return (
    <Alert tone="warning" title={t('profile.review.notReadyTitle')}>
      <ul className={styles.missing}>
        {pages.map((page) => (
          <li key={page.id}>
            <Link to={changeHref(page.path)}>{page.title}</Link>
            {page.missing.length > 0 ? `: ${page.missing.join(' ')}` : ''}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** The payment that follows identity verification, with the hold's amount when the package says it. */
function paymentStep(amount: string | undefined): string {
  return amount && Number(amount) > 0
    ? t('profile.review.afterPayment', { amount: formatAmount(amount) })
    : t('profile.review.afterPaymentNoAmount');
}

/**
 * The declaration, GOV.UK style: what starting means (what follows, what can no longer be changed), a
 * required confirmation that the answers are true and complete, and only then the move that locks them.
 */
function Declaration({ pages, ready }: { pages: ChecklistPage[]; ready: boolean }) {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [confirmed, setConfirmed] = useState(false);
  const [refused, setRefused] = useState(0);
  const [submit, setSubmit] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const missingDeclaration = refused > 0 && !confirmed;

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || submit.busy) return;
    if (!confirmed) {
      setRefused((n) => n + 1);
      return;
    }
    setSubmit({ busy: true, error: null });
    try {
      await moveSubjectStatus(statusIds['idv-started'], true);
      await navigate(paths.idv.getHref());
    } catch (error) {
      setSubmit({ busy: false, error: errorMessageOf(error) });
    }
  };

  const after = [
    user && siteSelectionApplies(user) ? t('profile.review.afterSite') : null,
    user && paymentRequired(user)
      ? paymentStep(user.package?.preferences.applicant_self_pay_initial_hold_amount)
      : null,
  ].filter((s): s is string => s !== null);

  return (
    <Card aria-labelledby="review-submit">
      <h2 id="review-submit" className={styles.heading}>
        {t('profile.review.submitTitle')}
      </h2>
      {ready ? (
        <form className={styles.declaration} onSubmit={(event) => void start(event)} noValidate>
          {missingDeclaration ? (
            <ErrorSummary
              key={refused}
              focusOnMount
              fields={[{ id: DECLARATION_ID, label: t('profile.review.declarationRequired') }]}
            />
          ) : null}
          <p>{t('profile.review.whatFollows')}</p>
          {after.length > 0 ? (
            <>
              <p>{t('profile.review.afterThat')}</p>
              <ul className={styles.missing}>
                {after.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ul>
            </>
          ) : null}
          <p className={styles.lockTitle}>{t('profile.review.lockTitle')}</p>
          <ul className={styles.missing}>
            {pages.map((page) => (
              <li key={page.id}>{page.title}</li>
            ))}
          </ul>
          <p>
            {t('profile.review.changeFirst')} <a href="#review-answers">{t('profile.review.changeFirstLink')}</a>
          </p>
          <Checkbox
            id={DECLARATION_ID}
            label={t('profile.review.declaration')}
            checked={confirmed}
            onChange={(event) => setConfirmed(event.currentTarget.checked)}
            error={missingDeclaration ? t('profile.review.declarationRequired') : undefined}
            aria-required="true"
          />
          {submit.error ? (
            <Alert focusOnMount>
              <p>{submit.error}</p>
            </Alert>
          ) : null}
          <div>
            <Button type="submit" loading={submit.busy}>
              {t('profile.review.start')}
            </Button>
          </div>
        </form>
      ) : (
        <>
          <p>{t('profile.review.notReadyText')}</p>
          <div>
            <Button disabled>{t('profile.review.start')}</Button>
          </div>
        </>
      )}
    </Card>
  );
}

export function ConfirmationReview({ documents, forms, signedDocuments }: ConfirmationReviewProps) {
  const subject = useSubject();
  const services = useServices();
  const places = usePlaceNames();

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
  return (
    <div className={styles.page}>
      <PageHeader title={t('profile.review.title')} description={t('profile.review.intro')} />
      {data.readyToSubmit ? null : <Missing subject={data} />}
      <div id="review-answers" className={styles.groups} tabIndex={-1}>
        {data.pages.map((page) => (
          <Card key={page.id} aria-labelledby={`review-${page.id}`}>
            <h2 id={`review-${page.id}`} className={styles.heading}>
              {page.title}
              {page.complete ? null : <span className={styles.incomplete}> {t('profile.review.incomplete')}</span>}
            </h2>
            <GroupBody
              page={page}
              subject={data}
              fields={aliasFields(services.data, page.id)}
              places={places}
              documents={documents}
              forms={forms}
            />
          </Card>
        ))}
        {signedDocuments ? <Card>{signedDocuments}</Card> : null}
      </div>
      <Declaration pages={data.pages} ready={data.readyToSubmit} />
    </div>
  );
}
