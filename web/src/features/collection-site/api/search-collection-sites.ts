// GET /api/v2/collection-sites: the drug-test collection sites near a ZIP code, nearest first
// (contract of issue 12). A ZIP the server does not know, or a radius it does not offer, is a 422
// with errorFields zip / radius, which the search form puts next to its fields.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type SiteService = 'urine' | 'hair' | 'oral_fluid' | 'dot';

export type OpeningHours = { day: string; opens: string; closes: string };

export type CollectionSite = {
  id: number;
  name: string;
  address: { street: string; city: string; state: string; zip: string };
  phone: string;
  /** IANA name; "today" and "open now" are the site's, not the applicant's. */
  timeZone: string;
  /** Days without a row are closed. */
  hours: OpeningHours[];
  services: SiteService[];
  lat: number;
  lon: number;
  /** Only in search results. */
  distanceMiles?: number;
  openNow?: boolean;
};

export type SiteSearchResult = {
  origin: { zip: string; city: string; state: string; lat: number; lon: number };
  radius: number;
  sites: CollectionSite[];
};

export const radiusChoices = [5, 10, 25, 50, 100] as const;
export const DEFAULT_RADIUS = 25;

export type SiteSearch = { zip: string; radius: number; openNow: boolean; weekends: boolean; dot: boolean };

export const siteSearchQuery = (search: SiteSearch) =>
  queryOptions({
    queryKey: ['collection-sites', search],
    queryFn: () =>
      api.get<SiteSearchResult>('api/v2/collection-sites', {
        query: {
          zip: search.zip,
          radius: search.radius,
          // Filters left off are not sent: "false" would read as a filter to some servers.
          openNow: search.openNow || undefined,
          weekends: search.weekends || undefined,
          dot: search.dot || undefined,
        },
      }),
    // Hours and "open now" move with the clock; a search a few minutes old is good enough.
    staleTime: 5 * 60 * 1000,
  });
