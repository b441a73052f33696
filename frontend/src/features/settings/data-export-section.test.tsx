import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { api, server } from '../../test/server';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { DATA_EXPORT_MESSAGES } from './data-export-section';
import { DataExportSection } from './data-export-section';

const HOUR = 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A server holding one person's archive, as the real one answers; `polls` counts status reads. */
function exportServer() {
  const asked = Date.now();
  const state = { now: 'none' as 'none' | 'preparing' | 'ready', polls: 0, requests: 0 };
  const status = () =>
    state.now === 'none'
      ? { state: 'none' }
      : {
          state: state.now,
          requested_at: iso(asked),
          ready_at: state.now === 'ready' ? iso(asked + 1000) : null,
          expires_at: state.now === 'ready' ? iso(asked + 7 * 24 * HOUR) : null,
          size_bytes: state.now === 'ready' ? 3 * 1024 * 1024 + 400 * 1024 : null,
          next_request_at: iso(asked + 24 * HOUR),
        };
  server.use(
    http.get(api('/account/data-export'), () => {
      state.polls += 1;
      return HttpResponse.json(status());
    }),
    http.post(api('/account/data-export'), () => {
      state.requests += 1;
      if (state.now !== 'none') {
        return HttpResponse.json(
          { detail: 'You can ask for a copy of your data once a day. You can ask again in 24 hours.' },
          { status: 429, headers: { 'Retry-After': '86400' } },
        );
      }
      state.now = 'preparing';
      return HttpResponse.json(status(), { status: 202 });
    }),
  );
  return state;
}

function renderSection() {
  signedInAs(ADA);
  return renderPage(<DataExportSection />, { route: '/settings', path: '/settings' });
}

describe('DataExportSection', () => {
  it('asks for an archive, says it is being prepared, and once ready that the link was e-mailed', async () => {
    const archive = exportServer();
    renderSection();
    const user = userEvent.setup();
    expect(await screen.findByText(DATA_EXPORT_MESSAGES.how)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Request my data' }));
    expect(await screen.findByText(DATA_EXPORT_MESSAGES.preparing)).toBeInTheDocument();
    expect(archive.requests).toBe(1);
    // Nothing to ask while it is being prepared.
    expect(screen.queryByRole('button', { name: 'Request my data' })).not.toBeInTheDocument();

    // The status is asked again until the archive is ready.
    archive.now = 'ready';
    expect(await screen.findByText(/Your archive \(3\.4 MB\) is ready\. We e-mailed you a link/, {}, { timeout: 6000 })).toBeInTheDocument();
    expect(screen.getByText(/You can ask for a new archive after/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request my data' })).toBeDisabled();
  }, 10_000);

  it('shows the server’s refusal', async () => {
    const archive = exportServer();
    archive.now = 'preparing';
    server.use(
      http.get(api('/account/data-export'), () =>
        HttpResponse.json({ state: 'failed', requested_at: iso(Date.now()), next_request_at: iso(Date.now()) }),
      ),
    );
    renderSection();
    const user = userEvent.setup();
    expect(await screen.findByText(DATA_EXPORT_MESSAGES.failed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Request my data' }));
    expect(
      await screen.findByText('You can ask for a copy of your data once a day. You can ask again in 24 hours.'),
    ).toBeInTheDocument();
  });
});
