import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { RelativeTime } from './relative-time';

const NOW = new Date('2026-11-23T12:00:00Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('RelativeTime', () => {
  it('says how long ago in a <time> with the full date as its title', () => {
    const time = ago(5 * 60_000);
    render(<RelativeTime time={time} />);
    const element = screen.getByText('5m ago');
    expect(element.tagName).toBe('TIME');
    expect(element).toHaveAttribute('dateTime', time);
    expect(element).toHaveAttribute('title', new Date(time).toLocaleString());
  });

  it('moves on every minute', () => {
    render(<RelativeTime time={ago(30_000)} />);
    expect(screen.getByText('just now')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('1m ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(59 * 60_000));
    expect(screen.getByText('1h ago')).toBeInTheDocument();
  });

  it('stops its clock when it leaves the page', () => {
    const { unmount } = render(<RelativeTime time={ago(0)} />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows nothing for an unreadable time', () => {
    const { container } = render(<RelativeTime time="not a time" />);
    expect(container).toBeEmptyDOMElement();
  });
});
