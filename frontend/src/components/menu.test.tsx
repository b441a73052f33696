import { useState, type ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Menu } from './menu';
import { Modal } from './modal';

function renderMenu(items: ComponentProps<typeof Menu>['items']) {
  render(
    <>
      <Menu label="Thing options" items={items} />
      <p>Elsewhere</p>
    </>,
  );
  return { user: userEvent.setup(), button: screen.getByRole('button', { name: 'Thing options' }) };
}

const menuitems = () => within(screen.getByRole('menu', { name: 'Thing options' })).getAllByRole('menuitem');

describe('Menu', () => {
  it('shows the items, then Cancel; choosing one closes the menu, runs it and gives focus back to the button', async () => {
    const share = vi.fn();
    const { user, button } = renderMenu([
      { label: 'Edit', onSelect: vi.fn() },
      { label: 'Share', onSelect: share },
    ]);
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(menuitems().map((item) => item.textContent)).toEqual(['Edit', 'Share', 'Cancel']);
    expect(menuitems()[0]).toHaveFocus();

    await user.click(screen.getByRole('menuitem', { name: 'Share' }));
    expect(share).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('leaves out false and null entries', async () => {
    const mine = false;
    const { user, button } = renderMenu([mine && { label: 'Delete', onSelect: vi.fn() }, null, { label: 'Shown', onSelect: vi.fn() }]);
    await user.click(button);
    expect(menuitems().map((item) => item.textContent)).toEqual(['Shown', 'Cancel']);
  });

  it('moves with the arrow keys (wrapping around), closes on Escape back to the button and on Tab', async () => {
    const { user, button } = renderMenu([{ label: 'Edit', onSelect: vi.fn() }]);
    await user.click(button);
    const [edit, cancel] = menuitems();
    await user.keyboard('{ArrowDown}');
    expect(cancel).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(edit).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(cancel).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();

    await user.click(button);
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on a click elsewhere and on Cancel', async () => {
    const { user, button } = renderMenu([{ label: 'Edit', onSelect: vi.fn() }]);
    await user.click(button);
    await user.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Cancel' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('does nothing for a disabled item, marks danger, and tells when an item is pointed at', async () => {
    const remove = vi.fn();
    const intent = vi.fn();
    const { user, button } = renderMenu([
      { label: 'Loading...', disabled: true, onSelect: remove },
      { label: 'Delete', danger: true, onSelect: vi.fn(), onIntent: intent },
    ]);
    await user.click(button);
    const loading = screen.getByRole('menuitem', { name: 'Loading...' });
    expect(loading).toHaveAttribute('aria-disabled', 'true');
    await user.click(loading);
    expect(remove).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeInTheDocument();
    const danger = screen.getByRole('menuitem', { name: 'Delete' });
    expect(danger).toHaveClass('danger');
    await user.hover(danger);
    expect(intent).toHaveBeenCalled();
  });

  it('gives focus back to the button when a dialog an item opened closes', async () => {
    function WithDialog() {
      const [open, setOpen] = useState(false);
      return (
        <Menu label="Thing options" items={[{ label: 'Rename', onSelect: () => setOpen(true) }]}>
          <Modal open={open} title="Rename" onClose={() => setOpen(false)}>
            <p>Form</p>
          </Modal>
        </Menu>
      );
    }
    render(<WithDialog />);
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Thing options' });
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(button).toHaveFocus();
  });

  it('stays open for a keepOpen item while a dialog is up, until its owner closes it', async () => {
    function Owned() {
      const [open, setOpen] = useState(false);
      const [asking, setAsking] = useState(false);
      return (
        <Menu
          label="Thing options"
          open={open}
          onOpenChange={setOpen}
          behindDialog={asking}
          items={[{ label: 'Block', keepOpen: true, onSelect: () => setAsking(true) }]}
        >
          <Modal open={asking} title="Sure?" onClose={() => setAsking(false)}>
            <button type="button" onClick={() => (setAsking(false), setOpen(false))}>
              Yes
            </button>
          </Modal>
        </Menu>
      );
    }
    render(<Owned />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Thing options' }));
    await user.click(screen.getByRole('menuitem', { name: 'Block' }));
    const dialog = screen.getByRole('dialog', { name: 'Sure?' });
    // A click in the dialog (outside the menu) leaves the menu open behind it.
    await user.click(within(dialog).getByText('Yes').parentElement as HTMLElement);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Block' })).toHaveFocus();

    await user.click(screen.getByRole('menuitem', { name: 'Block' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
