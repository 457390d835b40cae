import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { logInAs, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

describe("/'s services", () => {
  it('settle when an order cannot be read: the asking stops, and the page says what it knows', async () => {
    let asked = 0;
    server.use(
      http.get('/api/v2/user/order/:id', () => {
        asked += 1;
        return HttpResponse.json({ errorMessage: 'Not found' }, { status: 404 });
      }),
    );
    logInAs(2);
    renderApp('/');
    expect(
      await screen.findByText('The checks start shortly. We will show an expected date here once they do.'),
    ).toBeInTheDocument();
    // Once on load, once more when the event stream says it is ready; then no more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = asked;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(asked).toBe(settled);
    expect(asked).toBeLessThanOrEqual(2);
    expect(
      screen.getByText('The checks start shortly. We will show an expected date here once they do.'),
    ).toBeInTheDocument();
  });
});
