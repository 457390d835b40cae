import type { ComponentProps } from 'react';
import styles from './card.module.css';

type CardProps = Omit<ComponentProps<'section'>, 'ref'> & {
  /** 'flat' on a page that is already white (phones drop the shadow anyway). */
  variant?: 'raised' | 'flat';
  as?: 'section' | 'div' | 'article';
};

/** A white panel that holds one task (a form, a step). */
export function Card({ variant = 'raised', as: Tag = 'section', className, ...props }: CardProps) {
  return <Tag className={[styles.card, styles[variant], className ?? ''].filter(Boolean).join(' ')} {...props} />;
}
