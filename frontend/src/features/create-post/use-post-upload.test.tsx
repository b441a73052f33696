import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { LocationProbe, currentLocation, testQueryClient } from '../../test/render';
import type { SendOptions } from './api';
import { UploadError } from './upload';
import { usePostUpload } from './use-post-upload';

/** A send whose progress and answer the test controls. */
function controlledSend() {
  const calls: SendOptions[] = [];
  let settle: { resolve: (value: unknown) => void; reject: (error: unknown) => void } | null = null;
  const send = vi.fn((options: SendOptions) => {
    calls.push(options);
    return new Promise<unknown>((resolve, reject) => {
      settle = { resolve, reject };
    });
  });
  return {
    send,
    progress: (fraction: number) => act(() => calls.at(-1)?.onProgress?.(fraction)),
    signal: () => calls.at(-1)?.signal,
    succeed: () => act(async () => settle?.resolve({ id: '1' })),
    fail: (error: unknown) => act(async () => settle?.reject(error)),
  };
}

function renderUpload() {
  const queryClient = testQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/add-post-lyrics']}>
        <Routes>
          <Route path="*" element={children} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>
  );
  return renderHook(() => usePostUpload({ redirectTo: '/home', redirectDelayMs: 1500 }), { wrapper });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('usePostUpload', () => {
  it('creeps in 200–300 ms steps until the browser reports progress, never past 85 %', () => {
    vi.useFakeTimers();
    const { result } = renderUpload();
    const upload = controlledSend();
    act(() => result.current.submit(upload.send));
    expect(result.current.phase).toBe('sending');
    expect(result.current.percent).toBe(0);
    act(() => vi.advanceTimersByTime(199));
    expect(result.current.percent).toBe(0);
    act(() => vi.advanceTimersByTime(101));
    const firstStep = result.current.percent;
    expect(firstStep).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current.percent).toBe(85);
  });

  it('shows the real fraction once known, 95 % while the server works, 100 % when done', async () => {
    vi.useFakeTimers();
    const { result } = renderUpload();
    const upload = controlledSend();
    act(() => result.current.submit(upload.send));
    upload.progress(0.5);
    expect(result.current.percent).toBe(47);
    // The creep stops: time alone does not move the bar any more.
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current.percent).toBe(47);
    upload.progress(1);
    expect(result.current.phase).toBe('processing');
    expect(result.current.percent).toBe(95);
    await upload.succeed();
    expect(result.current.phase).toBe('done');
    expect(result.current.percent).toBe(100);
    expect(currentLocation()).toBe('/add-post-lyrics');
    act(() => vi.advanceTimersByTime(1499));
    expect(currentLocation()).toBe('/add-post-lyrics');
    act(() => vi.advanceTimersByTime(1));
    expect(currentLocation()).toBe('/home');
  });

  it('never goes back when the creep was ahead of the first real fraction', () => {
    vi.useFakeTimers();
    const { result } = renderUpload();
    const upload = controlledSend();
    act(() => result.current.submit(upload.send));
    act(() => vi.advanceTimersByTime(3000));
    const crept = result.current.percent;
    expect(crept).toBeGreaterThan(10);
    upload.progress(0.05);
    expect(result.current.percent).toBe(crept);
  });

  it('runs one submission at a time, and none after success', async () => {
    const { result } = renderUpload();
    const upload = controlledSend();
    act(() => {
      result.current.submit(upload.send);
      result.current.submit(upload.send);
    });
    expect(upload.send).toHaveBeenCalledTimes(1);
    await upload.succeed();
    act(() => result.current.submit(upload.send));
    expect(upload.send).toHaveBeenCalledTimes(1);
  });

  it('a failure shows its words, can be dismissed, and allows another try', async () => {
    const { result } = renderUpload();
    const upload = controlledSend();
    act(() => result.current.submit(upload.send));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await upload.fail(new UploadError('Failed to create lyrics post', 500));
    expect(result.current.phase).toBe('idle');
    expect(result.current.busy).toBe(false);
    expect(result.current.percent).toBe(0);
    expect(result.current.error).toBe('Failed to create lyrics post');
    act(() => result.current.dismissError());
    expect(result.current.error).toBeNull();
    act(() => result.current.submit(upload.send));
    expect(upload.send).toHaveBeenCalledTimes(2);
  });

  it('asks before the tab is closed or reloaded mid-upload, and not otherwise', async () => {
    const { result } = renderUpload();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    const upload = controlledSend();
    act(() => result.current.submit(upload.send));
    expect(unload()).toBe(true);
    await upload.succeed();
    expect(unload()).toBe(false);
  });

  it('leaving the page aborts the upload', () => {
    const { result, unmount } = renderUpload();
    const upload = controlledSend();
    act(() => result.current.submit(upload.send));
    expect(upload.signal()?.aborted).toBe(false);
    unmount();
    expect(upload.signal()?.aborted).toBe(true);
  });
});
