import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from './modal';

describe('Modal', () => {
  it('renders nothing while closed', () => {
    render(<Modal open={false} title="Hello" onClose={() => {}}>Body</Modal>);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('is a labelled dialog that takes focus', () => {
    render(
      <Modal open title="Hello" onClose={() => {}}>
        <button type="button">Inside</button>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'Hello' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it('closes on the close button, Escape and a backdrop click, not on a click inside', async () => {
    const onClose = vi.fn();
    render(<Modal open title="Hello" onClose={onClose}>Body text</Modal>);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.keyboard('{Escape}');
    fireEvent.mouseDown(screen.getByText('Body text'));
    expect(onClose).toHaveBeenCalledTimes(2);
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(3);
  });

  it('answers Escape with the topmost of two dialogs only', async () => {
    const outer = vi.fn();
    const inner = vi.fn();
    const { rerender } = render(
      <Modal open title="Details" onClose={outer}>
        <Modal open={false} title="Reason" onClose={inner}>
          Why
        </Modal>
      </Modal>,
    );
    // Opened from the first, as a reason is asked for from a complaint's details.
    rerender(
      <Modal open title="Details" onClose={outer}>
        <Modal open title="Reason" onClose={inner}>
          Why
        </Modal>
      </Modal>,
    );
    await userEvent.setup().keyboard('{Escape}');
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
  });
});
