// The applicant's data after setup, shared by the hub, the navigation, the data
// pages and /confirmation: the subject data (GET /api/v2/user/subject), the
// package's service definitions (GET /api/v2/user/service) and the fields the
// server requires (GET /api/v2/user/subject/required-fields). docs/api.md is
// the contract; these types mirror it.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from './api-client';

/** A condition on the other fields of the same entry (docs/api.md, "Field rules"). */
export type Rule =
  | { field: string; equals: FieldValue }
  | { field: string; notEquals: FieldValue }
  | { field: string; in: FieldValue[] }
  | { field: string; filled: boolean }
  | { all: Rule[] }
  | { any: Rule[] }
  | { not: Rule };

/** A field value: booleans for checkboxes, strings for everything else. */
export type FieldValue = string | boolean;

export type FieldType =
  'text' | 'textarea' | 'email' | 'phone' | 'date' | 'month' | 'select' | 'radio' | 'checkbox' | 'state' | 'country';

/** One field of a service's definition (spec section 3, "service definitions"). */
export type FieldDefinition = {
  id: number;
  /** The key of the value in an entry, such as "employer_name". */
  api: string;
  /** The label. */
  name: string;
  type: FieldType;
  /** For text, email and phone: a regular expression the whole value must match ("" for none). */
  format: string;
  options: { value: string; label: string }[];
  requiredFlag: boolean;
  rank: number;
  /** The lookup a state or country field takes its options from ("states", "countries"), else "". */
  reference: string;
  /** A marker the app acts on: "dot" is the DOT-regulated employer flag; "" otherwise. */
  flag: string;
  hint?: string;
  maxLength?: number;
  /** Date and month fields: not after today. */
  notFuture?: boolean;
  /** Date and month fields: not before the value of this other field. */
  after?: string;
  requiredWhen: Rule | null;
  visibleWhen: Rule | null;
};

export type Service = { id: number; code: string; name: string; fields: FieldDefinition[] };
export type SubjectService = { alias: string; service: Service };

/** One entry of a service page (one school, one employer...): values by field api, plus its id. */
export type ServiceEntry = { id?: string } & Record<string, FieldValue | undefined>;

export type DataAlias = 'education' | 'employment' | 'credential' | 'professional';

export type Alias = {
  id?: string;
  type: string;
  firstName: string;
  middleName: string;
  lastName: string;
  suffix: string;
  from: string;
  to: string;
};

export type Address = {
  id?: string;
  /** ISO 3166-1 alpha-2, "US" for the United States. */
  country: string;
  street1: string;
  street2: string;
  city: string;
  /** A US state code such as "US-CA"; abroad the region as written. */
  state: string;
  zip: string;
  /** "YYYY-MM". */
  from: string;
  /** "YYYY-MM", or "" for the current address. */
  to: string;
  current: boolean;
};

/** One page of the checklist: whether it is done and, if not, what is missing. */
export type ChecklistPage = {
  id: string;
  path: string;
  title: string;
  required: boolean;
  complete: boolean;
  missing: string[];
};

export type ServiceStatus = { status: 'pending' | 'complete'; hasError: boolean };

export type DotRelease = {
  entryId: string;
  employerName: string;
  documentId: number;
  signed: boolean;
  signedAt: string | null;
};

export type SubjectData = {
  location: unknown;
  noDataAvailable: Record<DataAlias, boolean>;
  insufficientDataBypass: boolean;
  bypassNotes: string;
  services: Partial<Record<DataAlias, ServiceEntry[]>>;
  serviceStatuses: Record<string, ServiceStatus>;
  aliases: Alias[];
  addresses: Address[];
  pages: ChecklistPage[];
  dotReleases: DotRelease[];
  readyToSubmit: boolean;
};

export const subjectQueries = {
  subject: () =>
    queryOptions({
      queryKey: ['subject'],
      queryFn: () => api.get<{ payload: SubjectData }>('api/v2/user/subject').then((r) => r.payload),
    }),
  services: () =>
    queryOptions({
      queryKey: ['services'],
      queryFn: () => api.get<{ payload: SubjectService[] }>('api/v2/user/service').then((r) => r.payload),
      staleTime: Infinity,
    }),
  requiredFields: () =>
    queryOptions({
      queryKey: ['required-fields'],
      queryFn: () =>
        api.get<{ payload: Record<string, string[]> }>('api/v2/user/subject/required-fields').then((r) => r.payload),
      staleTime: Infinity,
    }),
};

export const useSubject = () => useQuery(subjectQueries.subject());
export const useServices = () => useQuery(subjectQueries.services());
export const useRequiredFields = () => useQuery(subjectQueries.requiredFields());

/** After any save on a data page: the checklist, the navigation and /confirmation read the subject again. */
export function invalidateSubject(client: QueryClient) {
  return client.invalidateQueries({ queryKey: ['subject'] });
}

/** The review's "Change" links carry this, so the page's save leads back to /confirmation (GOV.UK check answers). */
const RETURN_TO_REVIEW = 'review';

/** A "Change" link of /confirmation: the page, and back to the review once it is saved. */
export function changeHref(path: string): string {
  return `${path}?return=${RETURN_TO_REVIEW}`;
}

/** Whether the page was opened from a "Change" link of the review (`search` is the location's). */
export function returnsToReview(search: string): boolean {
  return new URLSearchParams(search).get('return') === RETURN_TO_REVIEW;
}

/**
 * Where "Save and continue" leads: back to the review when the page was opened from it, else the next
 * page of the checklist after `currentId` that is not complete (wrapping to earlier ones), else
 * /confirmation.
 */
export function nextPagePath(pages: ChecklistPage[], currentId: string, search = ''): string {
  if (returnsToReview(search)) return '/confirmation';
  const at = pages.findIndex((p) => p.id === currentId);
  const ordered = at < 0 ? pages : [...pages.slice(at + 1), ...pages.slice(0, at)];
  return ordered.find((p) => !p.complete && p.id !== currentId)?.path ?? '/confirmation';
}

/**
 * Where "Save and continue" leads once the save is done: the next page of the checklist as the server
 * tells it after the save (which invalidated it). When it cannot be read, the last checklist known decides,
 * the one the navigation shows: the save is done either way, and the applicant goes on.
 */
export async function pathAfterSave(client: QueryClient, currentId: string, search = ''): Promise<string> {
  let pages = client.getQueryData(subjectQueries.subject().queryKey)?.pages ?? [];
  try {
    pages = (await client.fetchQuery(subjectQueries.subject())).pages;
  } catch {
    // The last checklist known decides.
  }
  return nextPagePath(pages, currentId, search);
}

/**
 * The fields a page of `alias` shows: those of every service of that alias, deduplicated by api (the lowest
 * rank wins), sorted by rank (docs/api.md, GET /api/v2/user/service).
 */
export function aliasFields(services: SubjectService[], alias: string): FieldDefinition[] {
  const byApi = new Map<string, FieldDefinition>();
  for (const { service } of services.filter((s) => s.alias === alias)) {
    for (const field of service.fields) {
      const seen = byApi.get(field.api);
      if (!seen || field.rank < seen.rank) byApi.set(field.api, field);
    }
  }
  // Ties by api, as the server orders them, so the order is the same everywhere.
  return [...byApi.values()].sort((a, b) => a.rank - b.rank || (a.api < b.api ? -1 : a.api > b.api ? 1 : 0));
}
