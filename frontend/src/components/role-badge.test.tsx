import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ROLE_TAGS, RoleBadge, roleForTagId } from './role-badge';

const [listener, musician, learner] = ROLE_TAGS;

describe('RoleBadge', () => {
  it.each([
    [musician.id, 'Musician', 'musician'],
    [learner.id, 'Learner', 'learner'],
    [listener.id, 'Listener', 'listener'],
  ])('%s shows %s in its colours', (id, name, className) => {
    render(<RoleBadge tagId={id} />);
    const badge = screen.getByText(name);
    expect(badge).toHaveClass(className);
    expect(badge).toHaveAttribute('data-role', name);
  });

  it("shows 'Add tag' for a missing or unknown tag on profiles", () => {
    const { rerender } = render(<RoleBadge tagId={null} />);
    expect(screen.getByText('Add tag')).toHaveClass('none');
    rerender(<RoleBadge tagId="not-a-tag" />);
    expect(screen.getByText('Add tag')).toBeInTheDocument();
  });

  it('shows Listener for an unknown tag on post authors', () => {
    render(<RoleBadge tagId="not-a-tag" fallback="listener" />);
    expect(screen.getByText('Listener')).toHaveClass('listener');
  });
});

describe('roleForTagId', () => {
  it('knows the three identifiers and nothing else', () => {
    expect(roleForTagId('b361c6f9-9425-4548-8c07-cb408140c304')?.name).toBe('Musician');
    expect(roleForTagId('5ee121a6-b467-4ead-b3f7-00e1ce6097d5')?.name).toBe('Learner');
    expect(roleForTagId('146fb41a-2f3e-48c7-bef9-01de0279dfd7')?.name).toBe('Listener');
    expect(roleForTagId(undefined)).toBeNull();
    expect(roleForTagId('')).toBeNull();
  });
});
