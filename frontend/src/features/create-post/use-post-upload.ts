/**
 * One create-post submission, from the Publish click to the redirect (spec §4 Create posts):
 * uploading with the bar, the success message and the move after 1.5 s or 2 s, or an error the
 * person can dismiss. A second submit while one runs (or after success) does nothing; leaving
 * the page aborts the upload, and closing or reloading the tab asks first.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { SESSION_EXPIRED_MESSAGE } from '../../lib/http';
import { invalidateTopics } from '../../lib/query-client';
import { sessionQueries, type SignInState } from '../../lib/session';
import type { SendOptions } from './api';
import { creepDelay, nextCreep, shownPercent } from './progress';
import { UploadError, isAbortError } from './upload';

export type UploadPhase =
  /** Nothing sent yet, or the last try failed. */
  | 'idle'
  /** The body is going out. */
  | 'sending'
  /** The server has every byte and is making the post. */
  | 'processing'
  /** Created; the redirect is on its way. */
  | 'done';

export interface PostUploadOptions {
  /** Where to go after success (spec §4: audio '/', the others '/home'). */
  redirectTo: string;
  /** How long the success message shows first (spec §9: 2 s audio, 1.5 s the others). */
  redirectDelayMs: number;
}

export interface PostUpload {
  phase: UploadPhase;
  /** Sending or processing: the form is locked. */
  busy: boolean;
  /** The bar, 0–100. */
  percent: number;
  /** The failure to show, until dismissed or the next try. */
  error: string | null;
  dismissError: () => void;
  /** Runs `send` unless a submission is running or has succeeded. */
  submit: (send: (options: SendOptions) => Promise<unknown>) => void;
}

export function usePostUpload({ redirectTo, redirectDelayMs }: PostUploadOptions): PostUpload {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [real, setReal] = useState<number | null>(null);
  const [creep, setCreep] = useState(0);
  const [error, setError] = useState<string | null>(null);

  /** Set from the first click until a failure: blocks a double submit within one tick too. */
  const locked = useRef(false);
  const controller = useRef<AbortController | null>(null);
  const creepTimer = useRef<number | undefined>(undefined);
  const redirectTimer = useRef<number | undefined>(undefined);

  // Leaving the page (unmount) stops the upload, the creep and the redirect.
  useEffect(
    () => () => {
      controller.current?.abort();
      window.clearTimeout(creepTimer.current);
      window.clearTimeout(redirectTimer.current);
    },
    [],
  );

  const busy = phase === 'sending' || phase === 'processing';

  // Closing or reloading the tab mid-upload asks first (the browser words the question).
  useEffect(() => {
    if (!busy) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers want returnValue set as well.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [busy]);

  function stopCreep() {
    window.clearTimeout(creepTimer.current);
    creepTimer.current = undefined;
  }

  function scheduleCreep() {
    creepTimer.current = window.setTimeout(() => {
      const random = Math.random();
      setCreep((current) => nextCreep(current, random));
      scheduleCreep();
    }, creepDelay(Math.random()));
  }

  function sessionEnded() {
    // Signed out from here on; the sign-in page brings the person back to this page after.
    queryClient.setQueryData(sessionQueries.me().queryKey, null);
    const state: SignInState = {
      from: `${location.pathname}${location.search}${location.hash}`,
      notice: SESSION_EXPIRED_MESSAGE,
    };
    void navigate('/sign-in', { state });
  }

  function succeeded() {
    setReal(1);
    setPhase('done');
    // Every feed and post list shows the new post next time it is on screen (instead of the
    // spec's forced reload), and the author's post count moves: all that shows 'posts'.
    void invalidateTopics(queryClient, ['posts']);
    redirectTimer.current = window.setTimeout(() => void navigate(redirectTo), redirectDelayMs);
  }

  function submit(send: (options: SendOptions) => Promise<unknown>) {
    if (locked.current) return;
    locked.current = true;
    const current = new AbortController();
    controller.current = current;
    setError(null);
    setReal(null);
    setCreep(0);
    setPhase('sending');
    scheduleCreep();

    const onProgress = (fraction: number) => {
      // A real fraction from the browser: the bar follows it, the creep is no longer needed.
      stopCreep();
      setReal((previous) => Math.max(previous ?? 0, fraction));
      if (fraction >= 1) setPhase('processing');
    };

    let sending: Promise<unknown>;
    try {
      sending = send({ onProgress, signal: current.signal });
    } catch (failure) {
      sending = Promise.reject(failure instanceof Error ? failure : new Error(String(failure)));
    }
    sending.then(
      () => {
        stopCreep();
        succeeded();
      },
      (failure: unknown) => {
        stopCreep();
        if (isAbortError(failure)) return;
        locked.current = false;
        if (failure instanceof UploadError && failure.sessionExpired) {
          sessionEnded();
          return;
        }
        console.error('Creating the post failed', failure);
        setPhase('idle');
        setReal(null);
        setCreep(0);
        setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
  }

  return {
    phase,
    busy,
    percent: phase === 'done' ? 100 : phase === 'idle' ? 0 : shownPercent(real, creep),
    error,
    dismissError: () => setError(null),
    submit,
  };
}
