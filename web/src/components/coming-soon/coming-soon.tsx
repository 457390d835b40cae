// Stands in for screens that later issues build; the route, guard and layout around it are real.
import type { ReactNode } from 'react';
import styles from './coming-soon.module.css';
import { t } from '@/lib/i18n';

export function ComingSoon({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className={styles.panel} aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title">{title}</h1>
      <p className={styles.note}>{t('common.comingSoon')}</p>
      {children}
    </section>
  );
}
