import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { subjectRead } from '@/testing/fixtures';
import { renderApp, logInAs } from '@/testing/render-app';
import { server } from '@/testing/server';
import { http, HttpResponse } from 'msw';
import type { ChecklistPage } from '@/lib/subject';
import { AppNav } from '../app-nav';

function renderNav(pages: ChecklistPage[] | undefined, url = '/profile') {
  const router = createMemoryRouter([{ path: '*', element: <AppNav pages={pages} /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup() };
}

describe('AppNav', () => {
  const pages = subjectRead().pages;

  it('lists the hub, every checklist page, review and account, in that order', () => {
    renderNav(pages);
    const nav = screen.getByRole('navigation', { name: 'Your profile' });
    const names = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(names).toEqual([
      '/profile',
      '/personal',
      '/aliases',
      '/addresses',
      '/employment',
      '/confirmation',
      '/account',
    ]);
  });

  it('says in words which pages are done and which are still to do', () => {
    renderNav(pages);
    expect(screen.getByRole('link', { name: 'Personal Information done' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Other Names to do' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Employment to do' })).toBeInTheDocument();
  });

  it('marks one item current when a signing page shares its path with a data page', () => {
    const more: ChecklistPage[] = [
      ...pages,
      { id: 'dot-releases', path: '/employment', title: 'DOT Releases', required: true, complete: false, missing: [] },
      { id: 'documents', path: '/profile', title: 'Legal Documents', required: true, complete: false, missing: [] },
    ];
    renderNav(more, '/employment');
    expect(screen.getByRole('link', { name: 'Employment to do' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'DOT Releases to do' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'DOT Releases to do' })).toHaveAttribute('href', '/employment');
    renderNav(more, '/profile');
    expect(screen.getAllByRole('link', { name: 'Legal Documents to do' }).at(-1)).not.toHaveAttribute('aria-current');
  });

  it('marks the current page with aria-current', () => {
    renderNav(pages, '/aliases');
    expect(screen.getByRole('link', { name: 'Other Names to do' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
  });

  it('lists additional documents and forms only when the checklist has them', () => {
    renderNav(pages);
    expect(screen.queryByRole('link', { name: /Additional documents/ })).not.toBeInTheDocument();
    renderNav([
      ...pages,
      {
        id: 'additional-documents',
        path: '/additional-documents',
        title: 'Additional documents',
        required: true,
        complete: false,
        missing: [],
      },
    ]);
    expect(screen.getByRole('link', { name: 'Additional documents to do' })).toBeInTheDocument();
  });

  it('says optional pages are optional and leaves them out of the progress', () => {
    const required = pages.filter((p) => p.required);
    renderNav([
      ...pages,
      {
        id: 'fillable-pdf-form',
        path: '/fillable-pdf-form',
        title: 'Forms',
        required: false,
        complete: true,
        missing: [],
      },
    ]);
    expect(screen.getByRole('link', { name: 'Forms optional' })).toBeInTheDocument();
    const done = required.filter((p) => p.complete).length;
    expect(
      screen.getByRole('button', { name: `Your profile: ${done} of ${required.length} done` }),
    ).toBeInTheDocument();
  });

  it('on a phone, a button with the progress opens and closes the list', async () => {
    const { user } = renderNav(pages);
    const toggle = screen.getByRole('button', { name: 'Your profile: 1 of 4 done' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toHaveAttribute('data-open', 'true');
  });

  it('closes the phone menu when a link is followed', async () => {
    const { user } = renderNav(pages);
    const toggle = screen.getByRole('button', { name: /Your profile/ });
    await user.click(toggle);
    await user.click(screen.getByRole('link', { name: 'Address History to do' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('Escape closes the phone menu and gives the focus back to its button', async () => {
    const { user } = renderNav(pages);
    const toggle = screen.getByRole('button', { name: /Your profile/ });
    await user.click(toggle);
    await user.tab();
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('while the checklist loads, still offers the hub, review and account', () => {
    renderNav(undefined);
    expect(screen.getAllByRole('link')).toHaveLength(3);
  });
});

describe('the navigation in the app', () => {
  it('shows on a page after setup, with the checklist from the server', async () => {
    server.use(http.get('/api/v2/user/subject', () => HttpResponse.json({ payload: subjectRead() })));
    logInAs(1);
    renderApp('/account');
    expect(await screen.findByRole('link', { name: 'Employment to do' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('aria-current', 'page');
  });

  it('is not there for an applicant past setup', async () => {
    logInAs(2);
    renderApp('/account');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('navigation', { name: 'Your profile' })).not.toBeInTheDocument();
  });
});
