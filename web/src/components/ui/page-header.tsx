import type { ReactNode } from 'react';
import styles from './page-header.module.css';

type PageHeaderProps = {
  title: ReactNode;
  /** One sentence under the title: what this page is for. */
  description?: ReactNode;
  /** Small text above the title ("Step 2", the employer's name). */
  eyebrow?: ReactNode;
  /** Buttons on the right (under the title on phones). */
  actions?: ReactNode;
  titleId?: string;
};

/** The page's title: the one h1 of the page, with its description. */
export function PageHeader({ title, description, eyebrow, actions, titleId }: PageHeaderProps) {
  return (
    <header className={styles.header}>
      <div className={styles.text}>
        {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
        <h1 id={titleId} className={styles.title}>
          {title}
        </h1>
        {description ? <p className={styles.description}>{description}</p> : null}
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </header>
  );
}
