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
  /** 1, the page's own title; 2 only where a page shows a header as a sample (the /ui gallery). */
  headingLevel?: 1 | 2;
};

/** The page's title: the one h1 of the page, with its description. */
export function PageHeader({ title, description, eyebrow, actions, titleId, headingLevel = 1 }: PageHeaderProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <header className={styles.header}>
      <div className={styles.text}>
        {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
        <Heading id={titleId} className={styles.title}>
          {title}
        </Heading>
        {description ? <p className={styles.description}>{description}</p> : null}
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </header>
  );
}
