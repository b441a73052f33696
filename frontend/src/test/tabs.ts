import { act } from '@testing-library/react';
import { onTestFinished, vi } from 'vitest';

/**
 * Stand-ins for what browser tabs of one origin share (jsdom has no Web Locks, and Node's
 * BroadcastChannel would reach other test files): tests render one "tab" per query client, and
 * these fakes join them as a browser profile would.
 */

interface Waiter {
  callback: LockGrantedCallback<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  granted: boolean;
}

/** `navigator.locks` with exclusive locks only: each name is held by one request at a time. */
export class FakeLockManager {
  private readonly queues = new Map<string, Waiter[]>();

  request(name: string, options: LockOptions, callback: LockGrantedCallback<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new DOMException('The lock request was aborted', 'AbortError'));
        return;
      }
      const queue = this.queues.get(name) ?? [];
      this.queues.set(name, queue);
      const waiter: Waiter = { callback, resolve, reject, granted: false };
      queue.push(waiter);
      signal?.addEventListener('abort', () => {
        if (waiter.granted || !queue.includes(waiter)) return;
        queue.splice(queue.indexOf(waiter), 1);
        reject(new DOMException('The lock request was aborted', 'AbortError'));
      });
      this.grantNext(name);
    });
  }

  /** Who holds `name` now, and how many wait for it. */
  state(name: string): { held: boolean; waiting: number } {
    const queue = this.queues.get(name) ?? [];
    return { held: queue[0]?.granted ?? false, waiting: queue.filter((w) => !w.granted).length };
  }

  private grantNext(name: string): void {
    const queue = this.queues.get(name) ?? [];
    const next = queue[0];
    if (!next || next.granted) return;
    next.granted = true;
    // As in a browser, the callback runs in a later task, and the lock lasts until its promise
    // settles.
    setTimeout(() => {
      void Promise.resolve(next.callback({ name, mode: 'exclusive' }))
        .then(next.resolve, next.reject)
        .finally(() => {
          queue.splice(queue.indexOf(next), 1);
          this.grantNext(name);
        });
    });
  }
}

/** A BroadcastChannel that reaches the other open channels of its name, a task later. */
export class FakeBroadcastChannel extends EventTarget {
  /** Every channel opened since installTabs(), oldest first. */
  static opened: FakeBroadcastChannel[] = [];

  readonly name: string;
  closed = false;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(name: string) {
    super();
    this.name = name;
    FakeBroadcastChannel.opened.push(this);
  }

  postMessage(message: unknown): void {
    if (this.closed) throw new DOMException('Channel is closed', 'InvalidStateError');
    const data = structuredClone(message);
    for (const other of FakeBroadcastChannel.opened) {
      if (other === this || other.name !== this.name || other.closed) continue;
      setTimeout(() => {
        if (other.closed) return;
        act(() => {
          const event = new MessageEvent('message', { data });
          other.onmessage?.(event);
          other.dispatchEvent(event);
        });
      });
    }
  }

  close(): void {
    this.closed = true;
  }
}

/** Gives this test Web Locks and BroadcastChannel, until it ends. */
export function installTabs(): FakeLockManager {
  const locks = new FakeLockManager();
  FakeBroadcastChannel.opened = [];
  vi.stubGlobal('BroadcastChannel', FakeBroadcastChannel);
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  onTestFinished(() => {
    delete (navigator as { locks?: unknown }).locks;
    vi.unstubAllGlobals();
  });
  return locks;
}

/** The channels still open. */
export function openChannels(): FakeBroadcastChannel[] {
  return FakeBroadcastChannel.opened.filter((c) => !c.closed);
}
