// The applicant's user, company, package and company settings are server
// state: they live in TanStack Query's cache only, filled by a login and asked
// of the server again when missing (after a reload) or stale (after a status
// move or on focus). The session store (./session) keeps only what the client
// itself owns: the credentials and whether the applicant is logged in.
//
// This module loads lazily from the login page's code (lib/auth.ts, through
// the loader main.tsx gives it; the guards), so TanStack Query stays off
// /login's first load.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CompanySettings, PersonalInformation, TokenLoginPayload, UserPayload } from '@/types/api';
import { api, setPasswordCheck } from './api-client';
import { defaultCompanyPreferences } from './auth';
import { queryClient } from './query-client';

export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['current-user'],
    queryFn: () => api.get<UserPayload>('api/v2/user'),
    // Fetched again on purpose only: after a status move, on focus (app/layouts/fresh-user-status.tsx).
    staleTime: Infinity,
  });

/** The settings, or null when the server has none to give: the defaults apply (default logo, no chat). */
async function fetchCompanySettings(companyId: number): Promise<CompanySettings | null> {
  try {
    const settings = await api.get<CompanySettings>(`api/settings/company/${companyId}`);
    return { ...settings, preferences: { ...defaultCompanyPreferences, ...settings.preferences } };
  } catch {
    // Missing settings are no reason to refuse a login or a page.
    return null;
  }
}

export const companySettingsQuery = (companyId: number) =>
  queryOptions({
    queryKey: ['company-settings', companyId],
    queryFn: () => fetchCompanySettings(companyId),
    staleTime: Infinity,
  });

/** Fetches the company's settings into the cache (null when the server has none). */
export async function loadCompanySettings(companyId: number) {
  await queryClient.fetchQuery(companySettingsQuery(companyId));
}

/** Keeps the answer of GET /api/v2/user (or of a token login, without its credential) as the current user. */
export function setCurrentUser(payload: UserPayload | TokenLoginPayload) {
  const { subject, company, profile, ipAddress, package: companyPackage, packageServices, finalization } = payload;
  queryClient.setQueryData(currentUserQuery().queryKey, {
    subject,
    company,
    profile,
    ipAddress,
    package: companyPackage,
    packageServices: packageServices ?? [],
    finalization,
  });
}

/**
 * Puts the saved personal information into the current user: PUT /api/v2/user answers only that part
 * of the user, since nothing else of it changes. With no user cached, the next read fetches it whole.
 */
export async function setPersonalInformation(personalInformation: PersonalInformation) {
  const user = cachedCurrentUser();
  if (!user) return queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
  queryClient.setQueryData(currentUserQuery().queryKey, { ...user, subject: { ...user.subject, personalInformation } });
}

/** The current user as the cache holds it; undefined before a login or after a reload until fetched. */
export function cachedCurrentUser(): UserPayload | undefined {
  return queryClient.getQueryData(currentUserQuery().queryKey);
}

// The API client, which /login loads without this cache, asks here when a setup session ends.
setPasswordCheck(() => Boolean(cachedCurrentUser()?.subject.hasPassword));

/** The current user and the company's settings, from the cache or else from the server. */
export async function ensureCurrentUser(): Promise<{ user: UserPayload; settings: CompanySettings | null }> {
  const user = await queryClient.ensureQueryData(currentUserQuery());
  const settings = await queryClient.ensureQueryData(companySettingsQuery(user.company.id));
  return { user, settings };
}

/**
 * The current user for a component. The guards put it in the cache before a
 * page renders, so this never fetches: a component outside a logged-in page
 * must not ask the server (a 401 would log out).
 */
export function useCurrentUser(): UserPayload | undefined {
  return useQuery({ ...currentUserQuery(), enabled: false }).data;
}

/** The company's settings, null while unknown or when the company has none. */
export function useCompanySettings(): CompanySettings | null {
  const companyId = useCurrentUser()?.company.id;
  const settings = useQuery({ ...companySettingsQuery(companyId ?? 0), enabled: companyId !== undefined });
  return settings.data ?? null;
}
