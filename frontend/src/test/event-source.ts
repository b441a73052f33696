import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A stand-in for the browser's EventSource (jsdom has none): tests see every stream the app
 * opened and play the server's part with `emit` and `fail`.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  /** Every stream opened since installFakeEventSource(), oldest first. */
  static opened: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials: boolean;
  readyState: number = FakeEventSource.CONNECTING;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    FakeEventSource.opened.push(this);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server sends `event: type` with `data` (an object is sent as JSON). */
  emit(type: string, data: unknown = ''): void {
    this.readyState = FakeEventSource.OPEN;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    act(() => {
      this.dispatchEvent(new MessageEvent(type, { data: text }));
    });
  }

  /** The connection fails: the browser tries again (CONNECTING), or gives up (CLOSED). */
  fail({ forGood = false } = {}): void {
    this.readyState = forGood ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    act(() => {
      this.dispatchEvent(new Event('error'));
    });
  }
}

/** Replaces EventSource for this test (undo with vi.unstubAllGlobals()). */
export function installFakeEventSource(): typeof FakeEventSource {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return FakeEventSource;
}

/** The streams still open. */
export function openStreams(): FakeEventSource[] {
  return FakeEventSource.opened.filter((s) => s.readyState !== FakeEventSource.CLOSED);
}
