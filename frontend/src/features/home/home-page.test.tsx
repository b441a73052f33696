import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HomePage } from './home-page';

describe('HomePage', () => {
  it("opens on 'For you'", () => {
    render(<HomePage />);
    expect(screen.getByRole('tab', { name: 'For you' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'false');
    expect(screen.queryByRole('heading', { name: 'Listened To Feed' })).toBeNull();
  });

  it("'Listened to' shows its heading and note", async () => {
    render(<HomePage />);
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Listened to' }));
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('heading', { name: 'Listened To Feed' })).toBeVisible();
    expect(screen.getByText("Posts from users you're listening to")).toBeVisible();
  });

  it('moves between tabs with the arrow keys', async () => {
    render(<HomePage />);
    const user = userEvent.setup();
    screen.getByRole('tab', { name: 'For you' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Listened to' })).toHaveAttribute('aria-selected', 'true');
  });
});
