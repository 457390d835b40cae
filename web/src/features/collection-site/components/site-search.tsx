// The search and the list both collection-site pages share: a ZIP code, a distance and three
// filters folded away; the sites nearest first (as the server sorts them) as one radio group, ten
// at a time (the arrow keys move the choice, a screen reader hears each site's address and hours
// with it); and the button that saves the choice. A refused search keeps the last results; a
// refused choice keeps the search and the selection.
import '@/features/collection-site/lib/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { z } from 'zod/mini';
import choiceStyles from '@/components/ui/choice.module.css';
import { Alert, ErrorSummary } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { Fieldset } from '@/components/ui/fieldset';
import { Select } from '@/components/ui/select';
import { TextField } from '@/components/ui/text-field';
import { ApiError, errorMessageOf } from '@/lib/api-client';
import { useFailedSave } from '@/lib/failed-save';
import { useAppForm } from '@/lib/form';
import { t } from '@/lib/i18n';
import {
  DEFAULT_RADIUS,
  radiusChoices,
  siteSearchQuery,
  type CollectionSite,
  type SiteSearch as SiteSearchParams,
  type SiteSearchResult,
} from '../api/search-collection-sites';
import { AllHours, ServiceTags, SiteAddress, SiteLinks, SitePhone, TodayHours, stateShown } from './site-details';
import styles from './collection-site.module.css';

const ZIP = /^\d{5}$/;

/** Sites shown at first and added by each "Show more sites". */
export const SITES_PAGE_SIZE = 10;

export const siteSearchSchema = z.object({
  zip: z.string().check(z.trim(), z.regex(ZIP, { error: () => t('sites.search.zipInvalid') })),
  radius: z.string(),
  openNow: z.boolean(),
  weekends: z.boolean(),
  dot: z.boolean(),
});

type SearchValues = z.infer<typeof siteSearchSchema>;

function countText(result: SiteSearchResult): string {
  const { origin, radius, sites } = result;
  const place = origin.city
    ? t('sites.results.place', { zip: origin.zip, city: origin.city, state: stateShown(origin.state) })
    : origin.zip;
  if (sites.length === 0) return t('sites.results.none', { radius, place });
  if (sites.length === 1) return t('sites.results.countOne', { radius, place });
  return t('sites.results.countMany', { count: sites.length, radius, place });
}

function SiteOption({
  site,
  checked,
  current,
  onSelect,
  action,
}: {
  site: CollectionSite;
  checked: boolean;
  current: boolean;
  onSelect: () => void;
  /** Under the selected site only: the button that saves it, where the applicant is looking. */
  action: ReactNode;
}) {
  const id = `site-${site.id}`;
  const miles = site.distanceMiles?.toFixed(1);
  return (
    <li className={styles.option} data-selected={checked || undefined}>
      <input
        id={id}
        type="radio"
        name="siteId"
        value={site.id}
        className={choiceStyles.radio}
        checked={checked}
        onChange={onSelect}
        aria-describedby={`${id}-details`}
      />
      <div className={styles.optionBody}>
        <label htmlFor={id} className={styles.optionLabel}>
          <span className={styles.siteName}>{site.name}</span>
          {miles ? (
            <span className={styles.distance}>
              <span aria-hidden="true">{t('sites.site.distance', { miles })}</span>
              <span className="visually-hidden">{t('sites.site.distanceLabel', { miles })}</span>
            </span>
          ) : null}
          {current ? <span className={styles.badge}>{t('sites.site.current')}</span> : null}
        </label>
        <div id={`${id}-details`} className={styles.details}>
          <SiteAddress site={site} />
          <TodayHours site={site} />
          <ServiceTags site={site} />
          {checked ? null : <SitePhone site={site} />}
        </div>
        {/* Links and the button only for the selected site: a keyboard goes from the radio group to
            them in a few Tabs, not through three links for each of fifty sites. */}
        {checked ? (
          <>
            <SiteLinks site={site} />
            <AllHours site={site} />
            {action}
          </>
        ) : null}
      </div>
    </li>
  );
}

type SiteSearchProps = {
  /** The applicant's drug-test ZIP code: searched at once when it is one. */
  initialZip?: string;
  /** On /collection-site-update: marked in the list, and choosing it again saves nothing. */
  currentSiteId?: number;
  /** Saves the choice; a rejection is shown above the button and the page stays as it is. */
  onChoose: (site: CollectionSite) => Promise<unknown>;
};

export function SiteSearch({ initialZip = '', currentSiteId, onChoose }: SiteSearchProps) {
  const client = useQueryClient();
  const [searched, setSearched] = useState<SiteSearchParams | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [chooseErrors, setChooseErrors] = useState<string[]>([]);
  const [shown, setShown] = useState(SITES_PAGE_SIZE);
  /** The first site "Show more sites" added: it takes focus once it is in the list. */
  const [focusSiteId, setFocusSiteId] = useState<number | null>(null);
  const searchForm = useAppForm<SearchValues>(siteSearchSchema, {
    defaultValues: {
      zip: ZIP.test(initialZip) ? initialZip : '',
      radius: String(DEFAULT_RADIUS),
      openNow: false,
      weekends: false,
      dot: false,
    },
  });
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = searchForm;
  const filtersOn = [watch('openNow'), watch('weekends'), watch('dot')].filter(Boolean).length;
  // Folded unless a filter is on when the page opens; then the applicant opens and closes it.
  const [filtersOpen, setFiltersOpen] = useState(filtersOn > 0);
  // The search's fields carry their own messages: the summary says only what belongs to none.
  const failed = useFailedSave(searchForm);
  const results = useQuery({
    ...siteSearchQuery(searched ?? { zip: '', radius: DEFAULT_RADIUS, openNow: false, weekends: false, dot: false }),
    enabled: searched !== null,
  });

  const search = handleSubmit(async (values) => {
    const params: SiteSearchParams = { ...values, zip: values.zip.trim(), radius: Number(values.radius) };
    failed.clear();
    try {
      // Fetched here rather than by the query, so a refusal lands on the form's fields.
      await client.fetchQuery(siteSearchQuery(params));
      setSearched(params);
      setShown(SITES_PAGE_SIZE);
    } catch (error) {
      failed.onServerError(error);
    }
  });

  // Once, when the applicant's ZIP code is known: the nearest sites are there when the page opens.
  const searchedOnLoad = useRef(false);
  useEffect(() => {
    if (searchedOnLoad.current || !ZIP.test(initialZip)) return;
    searchedOnLoad.current = true;
    void search();
  }, [initialZip, search]);

  const result = searched ? results.data : undefined;
  const sites = result?.sites ?? [];
  // A new search that no longer lists the selected site leaves nothing selected.
  const chosen = sites.find((site) => site.id === selected) ?? null;
  const visible = sites.slice(0, shown);

  useEffect(() => {
    if (focusSiteId === null) return;
    document.getElementById(`site-${focusSiteId}`)?.focus();
    setFocusSiteId(null);
  }, [focusSiteId]);

  const showMore = () => {
    const first = sites[shown];
    setShown(shown + SITES_PAGE_SIZE);
    if (first) setFocusSiteId(first.id);
  };

  const choose = async () => {
    if (!chosen) return;
    setChoosing(true);
    setChooseErrors([]);
    try {
      await onChoose(chosen);
    } catch (error) {
      const fieldMessages = error instanceof ApiError ? error.errorFields.map((f) => f.message) : [];
      setChooseErrors(fieldMessages.length > 0 ? fieldMessages : [errorMessageOf(error, t('sites.chooseFailed'))]);
      setChoosing(false);
    }
  };

  const chooseAction = (
    <div className={styles.choose}>
      {chooseErrors.length > 0 ? (
        <Alert focusOnMount>
          {chooseErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </Alert>
      ) : null}
      {chosen && chosen.id === currentSiteId ? (
        <p className={styles.muted}>{t('sites.site.isCurrent')}</p>
      ) : (
        <div>
          <Button onClick={() => void choose()} loading={choosing}>
            {t('sites.choose')}
          </Button>
        </div>
      )}
    </div>
  );

  return (
    <>
      <Card aria-labelledby="sites-search-title">
        <h2 id="sites-search-title" className={styles.heading}>
          {t('sites.search.title')}
        </h2>
        <form
          ref={failed.formRef}
          className={styles.form}
          aria-labelledby="sites-search-title"
          role="search"
          noValidate
          onSubmit={(event) => void search(event)}
        >
          <ErrorSummary key={failed.attempt} messages={failed.summary.messages} />
          <div className={styles.fields}>
            <TextField
              label={t('sites.search.zip')}
              hint={t('sites.search.zipHint')}
              inputMode="numeric"
              autoComplete="postal-code"
              maxLength={5}
              required
              error={errors.zip?.message}
              {...register('zip')}
            />
            <Select label={t('sites.search.radius')} error={errors.radius?.message} {...register('radius')}>
              {radiusChoices.map((miles) => (
                <option key={miles} value={String(miles)}>
                  {t('sites.search.radiusOption', { miles })}
                </option>
              ))}
            </Select>
          </div>
          <details
            className={styles.filterBox}
            open={filtersOpen}
            onToggle={(event) => setFiltersOpen(event.currentTarget.open)}
          >
            <summary>
              {t('sites.search.filtersToggle')}
              {filtersOn > 0 ? (
                <span className={styles.filterCount}>{t('sites.search.filtersOn', { count: filtersOn })}</span>
              ) : null}
            </summary>
            <Fieldset legend={t('sites.search.filters')} className={styles.filters}>
              <Checkbox label={t('sites.search.openNow')} {...register('openNow')} />
              <Checkbox label={t('sites.search.weekends')} {...register('weekends')} />
              <Checkbox label={t('sites.search.dot')} {...register('dot')} />
            </Fieldset>
          </details>
          <div>
            <Button type="submit" loading={isSubmitting}>
              {t('sites.search.submit')}
            </Button>
          </div>
        </form>
      </Card>

      <Card aria-labelledby="sites-results-title" className={styles.results}>
        {/* Polite: after each search a screen reader hears how many sites were found, without losing its place. */}
        <div role="status" aria-live="polite" aria-atomic="true">
          <h2 id="sites-results-title" className={styles.heading}>
            {result ? countText(result) : t('sites.results.title')}
          </h2>
        </div>
        {!result ? (
          results.isError ? (
            <Alert>
              <p>{t('sites.results.failed', { reason: errorMessageOf(results.error) })}</p>
            </Alert>
          ) : (
            <p className={styles.muted}>{t('sites.results.before')}</p>
          )
        ) : sites.length === 0 ? (
          <EmptyState title={t('sites.results.noneHint')} headingLevel={3} />
        ) : (
          <>
            <fieldset role="radiogroup" className={styles.list} aria-describedby="sites-choose-hint">
              <legend className="visually-hidden">{t('sites.results.legend')}</legend>
              <p id="sites-choose-hint" className={`${styles.muted} ${styles.listHint}`}>
                {t('sites.chooseHint')}
              </p>
              <ul className={styles.options}>
                {visible.map((site) => (
                  <SiteOption
                    key={site.id}
                    site={site}
                    checked={site.id === chosen?.id}
                    current={site.id === currentSiteId}
                    onSelect={() => {
                      setSelected(site.id);
                      setChooseErrors([]);
                    }}
                    action={chooseAction}
                  />
                ))}
              </ul>
            </fieldset>
            {sites.length > SITES_PAGE_SIZE ? (
              <div className={styles.more}>
                <p role="status" className={styles.muted}>
                  {t('sites.results.showing', { shown: visible.length, total: sites.length })}
                </p>
                {visible.length < sites.length ? (
                  <div>
                    <Button variant="secondary" onClick={showMore}>
                      {t('sites.results.showMore')}
                    </Button>
                  </div>
                ) : null}
              </div>
            ) : null}
          </>
        )}
      </Card>
    </>
  );
}
