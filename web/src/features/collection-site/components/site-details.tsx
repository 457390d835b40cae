// What an applicant needs to get to a collection site, shown the same way in the search results,
// on /collection-site-update and on home: the address, today's hours, the services, a phone link
// and directions.
import '@/features/collection-site/lib/messages';
import { t, type MessageKey } from '@/lib/i18n';
import { currentLocale } from '@/lib/locale';
import type { CollectionSite, OpeningHours, SiteService } from '../api/search-collection-sites';
import styles from './collection-site.module.css';

const serviceLabel: Record<SiteService, MessageKey> = {
  urine: 'sites.service.urine',
  hair: 'sites.service.hair',
  oral_fluid: 'sites.service.oral_fluid',
  dot: 'sites.service.dot',
};

/** "07:00" as "7:00 AM" ("7:00 a. m." in Spanish); anything else as written. */
export function timeShown(value: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!match) return value;
  // A fixed day in UTC: only the clock's hours and minutes are formatted. 24:00 is midnight.
  const at = new Date(Date.UTC(2000, 0, 1, Number(match[1]) % 24, Number(match[2])));
  return at.toLocaleTimeString(currentLocale(), { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
}

function rangeShown(hours: OpeningHours | undefined): string {
  return hours
    ? t('sites.site.hoursRange', { opens: timeShown(hours.opens), closes: timeShown(hours.closes) })
    : t('sites.site.closed');
}

/**
 * The weekday at the site ("Monday"), which may not be the applicant's across time zones. In English
 * whatever the language: it is the server's name of the day in a site's hours, not a word shown.
 */
export function siteWeekday(timeZone: string, now = new Date()): string {
  try {
    return now.toLocaleDateString('en-US', { weekday: 'long', timeZone });
  } catch {
    // An unknown zone: the applicant's own day is the best guess.
    return now.toLocaleDateString('en-US', { weekday: 'long' });
  }
}

const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A weekday of the server's hours ("Monday") in the chosen language ("lunes"). */
function weekdayShown(day: string): string {
  const index = weekdays.indexOf(day);
  // 2024-01-01 was a Monday.
  const date = new Date(Date.UTC(2024, 0, 1 + index));
  if (index < 0) return day;
  const name = date.toLocaleDateString(currentLocale(), { weekday: 'long', timeZone: 'UTC' });
  // Spanish writes "lunes"; as a row's label it starts with a capital, as the English does.
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** "US-CA" as "CA", as a postal address writes it; other codes as sent. */
export function stateShown(state: string): string {
  return state.replace(/^US-/, '');
}

export function SiteAddress({ site }: { site: CollectionSite }) {
  const { street, city, state, zip } = site.address;
  return (
    <span className={styles.address}>
      {street}, {city}, {stateShown(state)} {zip}
    </span>
  );
}

export function TodayHours({ site }: { site: CollectionSite }) {
  const today = site.hours.find((h) => h.day === siteWeekday(site.timeZone));
  // "Today: Closed" already says it: "Closed now" beside it would only repeat it.
  const badge = site.openNow !== undefined && (site.openNow || today !== undefined);
  return (
    <span className={styles.today}>
      {t('sites.site.today', { hours: rangeShown(today) })}
      {!badge ? null : (
        <span className={styles.badge} data-open={site.openNow || undefined}>
          {site.openNow ? t('sites.site.openNow') : t('sites.site.closedNow')}
        </span>
      )}
    </span>
  );
}

export function ServiceTags({ site }: { site: CollectionSite }) {
  if (site.services.length === 0) return null;
  return (
    <ul className={styles.tags} aria-label={t('sites.site.services')}>
      {site.services.map((service) => (
        <li key={service} className={styles.tag}>
          {serviceLabel[service] ? t(serviceLabel[service]) : service}
        </li>
      ))}
    </ul>
  );
}

/** Every day of the week, closed ones included, behind a disclosure so the list stays short. */
export function AllHours({ site }: { site: CollectionSite }) {
  return (
    <details className={styles.allHours}>
      <summary>{t('sites.site.allHours')}</summary>
      <dl aria-label={t('sites.site.hoursOf', { name: site.name })}>
        {weekdays.map((day) => (
          <div key={day} className={styles.hoursRow}>
            <dt>{weekdayShown(day)}</dt>
            <dd>{rangeShown(site.hours.find((h) => h.day === day))}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function directionsHref(site: Pick<CollectionSite, 'lat' | 'lon'>): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${site.lat},${site.lon}`;
}

/** The phone number as text: for a site in the list that is not selected, whose links are not shown. */
export function SitePhone({ site }: { site: CollectionSite }) {
  if (!site.phone) return null;
  return <span className={styles.phone}>{t('sites.site.phone', { phone: site.phone })}</span>;
}

/** Call and Directions: links, so they sit outside a radio's label. */
export function SiteLinks({ site }: { site: CollectionSite }) {
  const dial = site.phone.replace(/[^\d+]/g, '');
  return (
    <span className={styles.links}>
      {dial ? (
        <a href={`tel:${dial}`} aria-label={t('sites.site.callLabel', { name: site.name, phone: site.phone })}>
          {site.phone}
        </a>
      ) : null}
      {Number.isFinite(site.lat) && Number.isFinite(site.lon) ? (
        <a
          href={directionsHref(site)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('sites.site.directionsLabel', { name: site.name })}
        >
          {t('sites.site.directions')}
        </a>
      ) : null}
    </span>
  );
}

/** A chosen site in full (current site, home's card): name, address, hours, services, links. */
export function SiteSummary({ site, headingLevel = 3 }: { site: CollectionSite; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={styles.summary}>
      <Heading className={styles.siteName}>{site.name}</Heading>
      <SiteAddress site={site} />
      <TodayHours site={site} />
      <ServiceTags site={site} />
      <SiteLinks site={site} />
      <AllHours site={site} />
    </div>
  );
}
