import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/server';
import {
  changeHref,
  nextPagePath,
  pathAfterSave,
  subjectQueries,
  type ChecklistPage,
  type SubjectData,
} from '../subject';

const page = (id: string, complete: boolean): ChecklistPage => ({
  id,
  path: `/${id}`,
  title: id,
  required: true,
  complete,
  missing: [],
});

// Before the save, /addresses still needed answers; the save completed it.
const before = [page('aliases', false), page('addresses', false), page('employment', false)];
const after = [page('aliases', false), page('addresses', true), page('employment', false)];

describe('pathAfterSave', () => {
  it.each<{ name: string; cached: ChecklistPage[] | null; answer: ChecklistPage[] | null; want: string }>([
    { name: 'the checklist as the server tells it after the save', cached: before, answer: after, want: '/employment' },
    { name: 'the last checklist known when the server cannot tell', cached: before, answer: null, want: '/addresses' },
    { name: '/confirmation when no checklist is known at all', cached: null, answer: null, want: '/confirmation' },
  ])('from /aliases leads by $name', async ({ cached, answer, want }) => {
    server.use(
      http.get('/api/v2/user/subject', () =>
        answer ? HttpResponse.json({ payload: { pages: answer } }) : HttpResponse.json({}, { status: 404 }),
      ),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    if (cached) client.setQueryData(subjectQueries.subject().queryKey, { pages: cached } as SubjectData);
    await client.invalidateQueries({ queryKey: ['subject'] });
    expect(await pathAfterSave(client, 'aliases')).toBe(want);
  });
});

describe('nextPagePath', () => {
  const pages = [page('personal', true), page('aliases', false), page('addresses', true), page('employment', false)];
  it.each([
    { name: 'the next page still to do after this one', current: 'aliases', search: '', want: '/employment' },
    { name: 'wrapping to an earlier one', current: 'employment', search: '', want: '/aliases' },
    {
      name: 'the review when opened from its Change link',
      current: 'aliases',
      search: '?return=review',
      want: '/confirmation',
    },
    { name: 'not for another return', current: 'aliases', search: '?return=elsewhere', want: '/employment' },
  ])('leads to $name', ({ current, search, want }) => {
    expect(nextPagePath(pages, current, search)).toBe(want);
  });

  it('is where a Change link of the review leads back to', () => {
    expect(nextPagePath(pages, 'aliases', new URL(changeHref('/aliases'), 'http://x').search)).toBe('/confirmation');
  });
});
