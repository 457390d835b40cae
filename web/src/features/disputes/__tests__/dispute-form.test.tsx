import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { charactersLeft } from '@/features/disputes/lib/dispute-schema';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const dispute = {
  id: 7,
  reason: 'inaccurate',
  serviceCode: 'crim',
  serviceName: 'Criminal',
  explanation: 'The case was dismissed.',
  state: 'received',
  outcome: '',
  resolution: '',
  receivedAt: '2026-11-29T09:00:00Z',
  dueAt: '2026-12-29T09:00:00Z',
  daysLeft: 30,
  extended: false,
  resolvedAt: null,
  files: [],
  messages: [],
};

async function openForm(url = '/disputes/new?service=crim') {
  logInAs(2);
  server.use(http.get('/api/v2/user/disputes/7', () => HttpResponse.json(dispute)));
  const view = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: 'Dispute something in your report' });
  return view;
}

describe('/disputes/new', () => {
  it('says what to do for each question left unanswered, in a summary that links to them', async () => {
    const { user } = await openForm('/disputes/new');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByRole('alert');
    for (const question of ['What is wrong?', 'Which part of your report is it about?', 'Explain what is wrong']) {
      expect(within(summary).getByRole('link', { name: question })).toBeInTheDocument();
    }
    expect(screen.getAllByText('Select what is wrong')).not.toHaveLength(0);
    expect(screen.getAllByText('Select which part of your report it is about')).not.toHaveLength(0);
    expect(screen.getByRole('textbox', { name: /Explain what is wrong/ })).toHaveAccessibleDescription(
      expect.stringContaining('Enter your explanation'),
    );
  });

  it('counts the characters left and refuses an explanation over 5000', async () => {
    expect(charactersLeft('')).toBe('You have 5000 characters remaining');
    expect(charactersLeft('x'.repeat(4999))).toBe('You have 1 character remaining');
    expect(charactersLeft('x'.repeat(5002))).toBe('You have 2 characters too many');
    const { user } = await openForm();
    const explanation = screen.getByRole('textbox', { name: /Explain what is wrong/ });
    await user.click(explanation);
    await user.paste('x'.repeat(5001));
    expect(screen.getByText('You have 1 character too many')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findAllByText('Your explanation must be 5000 characters or fewer')).not.toHaveLength(0);
  });

  it('checks the answers, changes one, and sends the dispute with its evidence', async () => {
    let sent: FormData | undefined;
    server.use(
      http.post('/api/v2/user/disputes', async ({ request }) => {
        sent = await request.formData();
        return HttpResponse.json(dispute, { status: 201 });
      }),
    );
    const { user, router } = await openForm();
    // ?service=crim preselected the service.
    expect(screen.getByRole('radio', { name: 'Criminal' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /It is wrong/ }));
    await user.type(screen.getByRole('textbox', { name: /Explain what is wrong/ }), 'The case was dismissed.');
    await user.upload(
      screen.getByLabelText('Evidence (optional)', { selector: 'input[type=file]' }),
      new File(['%PDF-1.4'], 'court.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('button', { name: 'Remove court.pdf' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const title = await screen.findByRole('heading', { level: 1, name: 'Check your answers' });
    expect(title).toHaveFocus();
    const answers = screen.getByText('Your explanation').closest('dl') as HTMLElement;
    expect(within(answers).getByText('It is wrong')).toBeInTheDocument();
    expect(within(answers).getByText('Criminal')).toBeInTheDocument();
    expect(within(answers).getByText('court.pdf')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Change what is wrong' }));
    await screen.findByRole('heading', { level: 1, name: 'Dispute something in your report' });
    expect(screen.getByRole('radio', { name: /It is wrong/ })).toBeChecked();
    expect(screen.getByRole('textbox', { name: /Explain what is wrong/ })).toHaveValue('The case was dismissed.');
    await user.click(screen.getByRole('radio', { name: /This is not me/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Send dispute' }));

    await screen.findByRole('heading', { level: 1, name: 'Your dispute of the Criminal check' });
    expect(router.state.location.pathname).toBe('/disputes/7');
    expect(sent?.get('reason')).toBe('not-me');
    expect(sent?.get('serviceCode')).toBe('crim');
    expect(sent?.get('explanation')).toBe('The case was dismissed.');
    // jsdom's File loses its name through MSW's XMLHttpRequest interception; the browser test sends it.
    expect([...(sent?.keys() ?? [])]).toEqual(['reason', 'serviceCode', 'explanation', 'file']);
  });

  it("keeps every answer when the send fails, with the server's message on its field", async () => {
    server.use(
      http.post('/api/v2/user/disputes', () =>
        HttpResponse.json(
          {
            errorMessage: 'validation error',
            errorFields: [{ field: 'serviceCode', message: 'Select the report or one of its services' }],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openForm('/disputes/new');
    await user.click(screen.getByRole('radio', { name: /Something is missing/ }));
    await user.click(screen.getByRole('radio', { name: 'The report as a whole' }));
    await user.type(screen.getByRole('textbox', { name: /Explain what is wrong/ }), 'A dismissal is missing.');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Send dispute' }));

    await screen.findByRole('heading', { level: 1, name: 'Dispute something in your report' });
    expect(await screen.findAllByText('Select the report or one of its services')).not.toHaveLength(0);
    expect(screen.getByRole('radio', { name: /Something is missing/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'The report as a whole' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: /Explain what is wrong/ })).toHaveValue('A dismissal is missing.');
  });
});
