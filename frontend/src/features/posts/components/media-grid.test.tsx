import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { MediaItem } from '../types';
import { MediaGrid } from './media-grid';

const image = (id: string): MediaItem => ({
  id,
  src: `/media/${id}.png`,
  displaySrc: `/media/${id}-display.jpg`,
  type: 'image',
  width: 1280,
  height: 720,
  poster: null,
});

const pictures = () => screen.getAllByRole('button').map((b) => b.querySelector('img'));

describe('MediaGrid', () => {
  it("loads the first post's first picture at once and first, with its size; the rest lazily", () => {
    render(<MediaGrid items={[image('a'), image('b')]} first />);
    const [lead, next] = pictures();
    expect(lead).toHaveAttribute('loading', 'eager');
    expect(lead).toHaveAttribute('fetchpriority', 'high');
    expect(lead).toHaveAttribute('width', '1280');
    expect(lead).toHaveAttribute('height', '720');
    expect(next).toHaveAttribute('loading', 'lazy');
    expect(next).toHaveAttribute('fetchpriority', 'auto');
  });

  it('loads every picture of a later post lazily', () => {
    render(<MediaGrid items={[image('a'), { ...image('v'), type: 'video', poster: '/media/v.jpg' }]} />);
    for (const img of pictures()) expect(img).toHaveAttribute('loading', 'lazy');
  });
});
