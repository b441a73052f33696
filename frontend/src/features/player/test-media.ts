/**
 * Test support: jsdom has no media playback, so the player's tests stub play/pause/load on
 * HTMLMediaElement (restored after each test by the setup's restoreAllMocks). Only tests import
 * this module.
 */
import { act } from '@testing-library/react';
import { vi } from 'vitest';

export function stubMedia(playResult: () => Promise<void> = () => Promise.resolve()) {
  const elements: HTMLMediaElement[] = [];
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    if (!elements.includes(this)) elements.push(this);
    return playResult();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
  const load = vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  return {
    play,
    pause,
    load,
    /** Every media element play() was called on. */
    elements,
    /** The element play() was last called on. */
    audio(): HTMLMediaElement {
      const last = elements.at(-1);
      if (!last) throw new Error('play() was never called');
      return last;
    },
  };
}

/** Makes the element report a length, as it does once the file's metadata is read. */
export function setDuration(audio: HTMLMediaElement, seconds: number) {
  Object.defineProperty(audio, 'duration', { configurable: true, get: () => seconds });
  act(() => {
    audio.dispatchEvent(new Event('durationchange'));
  });
}

/** Sends a media event, as the element does. */
export function fire(audio: HTMLMediaElement, type: string) {
  act(() => {
    audio.dispatchEvent(new Event(type));
  });
}

/** Moves the playing position, as the element does while playing. */
export function playTo(audio: HTMLMediaElement, seconds: number) {
  audio.currentTime = seconds;
  act(() => {
    audio.dispatchEvent(new Event('timeupdate'));
  });
}
