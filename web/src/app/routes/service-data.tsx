// The service-driven data pages: /education, /employment, /credential and
// /professional, one feature component with the page's alias.
import '@/features/services/lib/messages';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { DotReleaseList } from '@/features/legal/components/dot-release-list';
import { ServicePage } from '@/features/services/components/service-page';
import { wordsOf } from '@/features/services/lib/pages';
import type { DataAlias } from '@/lib/subject';
import styles from './page.module.css';

function ServiceDataPage({ alias, footer }: { alias: DataAlias; footer?: ReactNode }) {
  const words = wordsOf(alias);
  return (
    <div className={styles.page}>
      <PageHeader title={words.title} description={words.description} />
      <ServicePage alias={alias} footer={footer} />
    </div>
  );
}

export function EducationRoute() {
  return <ServiceDataPage alias="education" />;
}

/** Below the employers: one DOT release to sign per DOT-regulated employer (features/legal). */
export function EmploymentRoute() {
  return <ServiceDataPage alias="employment" footer={<DotReleaseList />} />;
}

export function CredentialRoute() {
  return <ServiceDataPage alias="credential" />;
}

export function ProfessionalRoute() {
  return <ServiceDataPage alias="professional" />;
}
