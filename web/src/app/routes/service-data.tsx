// The service-driven data pages: /education, /employment, /credential and
// /professional, one feature component with the page's alias.
import '@/features/services/lib/messages';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { DotReleaseList } from '@/features/legal/components/dot-release-list';
import { useQuery } from '@tanstack/react-query';
import { historyQueries } from '@/features/history/api/history-api';
import { ServicePage, type ServiceTimeline } from '@/features/services/components/service-page';
import { wordsOf } from '@/features/services/lib/pages';
import type { DataAlias } from '@/lib/subject';
import styles from './page.module.css';

function ServiceDataPage({
  alias,
  footer,
  timeline,
}: {
  alias: DataAlias;
  footer?: ReactNode;
  timeline?: ServiceTimeline;
}) {
  const words = wordsOf(alias);
  return (
    <div className={styles.page}>
      <PageHeader title={words.title} description={words.description} />
      <ServicePage alias={alias} footer={footer} timeline={timeline} />
    </div>
  );
}

export function EducationRoute() {
  return <ServiceDataPage alias="education" />;
}

/** Below the employers: one DOT release to sign per DOT-regulated employer (features/legal). */
export function EmploymentRoute() {
  // The employers' look-back period: the service definitions carry none, so the package's years of
  // history, as the addresses page counts them (features/history). Without it, no bar.
  const addresses = useQuery(historyQueries.addresses());
  const coverageStart = addresses.data?.coverageStart;
  return (
    <ServiceDataPage
      alias="employment"
      footer={<DotReleaseList />}
      timeline={coverageStart ? { coverageStart } : undefined}
    />
  );
}

export function CredentialRoute() {
  return <ServiceDataPage alias="credential" />;
}

export function ProfessionalRoute() {
  return <ServiceDataPage alias="professional" />;
}
