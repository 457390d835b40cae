// The screening provider's logo: its own image when the server names one
// (--brand-logo-url), else the built-in wordmark: a shield-and-check mark and
// the brand name set in type, so every deployment gets a real logo, not a
// placeholder shape. An image that fails to load falls back to the wordmark.
import { useState } from 'react';
import { config, type Brand } from '@/lib/config';
import { t } from '@/lib/i18n';
import styles from './brand-logo.module.css';

type BrandLogoProps = {
  brand?: Brand;
  size?: 'md' | 'lg';
};

export function BrandLogo({ brand = config.brand, size = 'md' }: BrandLogoProps) {
  const [broken, setBroken] = useState<string | null>(null);
  if (brand.logoUrl && broken !== brand.logoUrl) {
    return (
      <img
        className={[styles.image, styles[size]].join(' ')}
        src={brand.logoUrl}
        alt={t('ui.logo.alt', { name: brand.name })}
        onError={() => setBroken(brand.logoUrl)}
      />
    );
  }
  return (
    <span className={[styles.wordmark, styles[size]].join(' ')} data-testid="brand-wordmark">
      <svg className={styles.mark} viewBox="0 0 32 36" aria-hidden="true" focusable="false">
        <path d="M16 1.5 3 6.5v10.2c0 8.3 5.5 15 13 17.8 7.5-2.8 13-9.5 13-17.8V6.5L16 1.5Z" fill="#13639f" />
        <path d="M16 1.5v33c7.5-2.8 13-9.5 13-17.8V6.5L16 1.5Z" fill="#0e4c7a" />
        <path
          d="m9.5 18.2 4.6 4.6 8.8-9.6"
          fill="none"
          stroke="#ff9f00"
          strokeWidth="3.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className={styles.name}>{brand.name}</span>
    </span>
  );
}
