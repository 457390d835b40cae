import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BrandLogo } from '@/components/logo/brand-logo';
import { TrustPanel } from '@/components/trust-panel/trust-panel';
import { defaultConfig } from '@/lib/config';
import { SiteFooter, telHref } from '../site-footer';

const brand = {
  ...defaultConfig.brand,
  name: 'Northwind Checks',
  supportEmail: 'help@nw.example',
  supportPhone: '+1 (555) 010-0123',
};

describe('SiteFooter', () => {
  it('gives the support e-mail and phone as links, the privacy policy and the brand name', () => {
    render(<SiteFooter brand={brand} />);
    expect(screen.getByRole('link', { name: 'help@nw.example' })).toHaveAttribute('href', 'mailto:help@nw.example');
    expect(screen.getByRole('link', { name: '+1 (555) 010-0123' })).toHaveAttribute('href', 'tel:+15550100123');
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', brand.privacyPolicyUrl);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('This portal is run by Northwind Checks.');
  });

  it('dials digits only', () => {
    expect(telHref('+1 (555) 010-0199')).toBe('tel:+15550100199');
  });
});

describe('BrandLogo', () => {
  it('is the wordmark with the brand name when no logo address is set', () => {
    render(<BrandLogo brand={brand} />);
    expect(screen.getByTestId('brand-wordmark')).toHaveTextContent('Northwind Checks');
  });

  it("shows the provider's logo, and the wordmark when it fails to load", () => {
    render(<BrandLogo brand={{ ...brand, logoUrl: 'https://cdn.example/nw.svg' }} />);
    const logo = screen.getByRole('img', { name: 'Northwind Checks logo' });
    fireEvent.error(logo);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByTestId('brand-wordmark')).toHaveTextContent('Northwind Checks');
  });
});

describe('TrustPanel', () => {
  it('says why, who sees the data and that it is encrypted, naming the employer once known', () => {
    const { rerender } = render(<TrustPanel brand={brand} />);
    const panel = screen.getByRole('complementary', { name: 'About this screening' });
    expect(panel).toHaveTextContent('your employer asked Northwind Checks to run a background check');
    expect(panel).toHaveTextContent('Who sees my data?');
    expect(panel).toHaveTextContent('encrypted');
    rerender(<TrustPanel brand={brand} employer={{ name: 'Acme Logistics' }} />);
    expect(panel).toHaveTextContent('Acme Logistics asked Northwind Checks');
  });
});
