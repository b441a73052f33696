import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderPage } from '../../test/render';
import { ADA, signedInAs } from '../../test/session';
import { AdminSection } from './admin-section';

describe('AdminSection', () => {
  it('leads an admin to the admin panel', async () => {
    signedInAs({ ...ADA, is_admin: true });
    renderPage(<AdminSection />, { route: '/settings', path: '/settings' });
    expect(await screen.findByRole('heading', { name: 'Admin' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the admin panel' })).toHaveAttribute('href', '/admin');
  });

  it('shows nothing to anyone else', async () => {
    const check = signedInAs(ADA);
    renderPage(<AdminSection />, { route: '/settings', path: '/settings' });
    await new Promise((r) => setTimeout(r, 50));
    expect(check.calls()).toBe(1);
    expect(screen.queryByRole('heading', { name: 'Admin' })).toBeNull();
    expect(screen.queryByRole('link', { name: /admin panel/ })).toBeNull();
  });
});
