import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Avatar, defaultAvatar } from './avatar';

describe('Avatar', () => {
  it('shows the picture with the name as alt text', () => {
    render(<Avatar src="https://cdn.test/ada.png" name="Ada" />);
    expect(screen.getByRole('img', { name: 'Ada' })).toHaveAttribute('src', 'https://cdn.test/ada.png');
  });

  it('falls back to the default avatar when the picture is broken', () => {
    render(<Avatar src="https://cdn.test/broken.png" name="Ada" />);
    const img = screen.getByRole('img', { name: 'Ada' });
    fireEvent.error(img);
    expect(img).toHaveAttribute('src', defaultAvatar);
    expect(img).toHaveAttribute('data-fallback', 'true');
  });

  it('uses the default avatar when there is no picture', () => {
    render(<Avatar src={null} name="Ada" />);
    expect(screen.getByRole('img', { name: 'Ada' })).toHaveAttribute('src', defaultAvatar);
  });

  it('tries a new picture again after an earlier one broke', () => {
    const { rerender } = render(<Avatar src="https://cdn.test/broken.png" name="Ada" />);
    fireEvent.error(screen.getByRole('img'));
    rerender(<Avatar src="https://cdn.test/new.png" name="Ada" />);
    expect(screen.getByRole('img')).toHaveAttribute('src', 'https://cdn.test/new.png');
  });
});
