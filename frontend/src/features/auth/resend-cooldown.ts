/**
 * The resend-verification cooldown (spec §4, §9): after a successful resend the time is stored
 * per e-mail in local storage and the button waits 3 minutes, counting down each second.
 */
import { useEffect, useState } from 'react';

export const RESEND_COOLDOWN_MS = 3 * 60 * 1000;
const KEY_PREFIX = 'verification_resend_at:';

function keyFor(email: string): string {
  return `${KEY_PREFIX}${email.trim().toLowerCase()}`;
}

/** Records a resend that happened at `at` (ms since epoch). */
export function startCooldown(email: string, at: number = Date.now()): void {
  try {
    localStorage.setItem(keyFor(email), String(at));
  } catch {
    // Storage unavailable: the cooldown simply does not survive a reload.
  }
}

/** Starts a cooldown that ends in `remainingMs`, e.g. when the server says how long to wait. */
export function startCooldownEndingIn(email: string, remainingMs: number, now = Date.now()): void {
  startCooldown(email, now - RESEND_COOLDOWN_MS + Math.min(remainingMs, RESEND_COOLDOWN_MS));
}

/** Milliseconds left before another resend is allowed; 0 when none is pending. */
export function cooldownRemaining(email: string, now: number = Date.now()): number {
  let raw: string | null;
  try {
    raw = localStorage.getItem(keyFor(email));
  } catch {
    return 0;
  }
  const at = raw === null ? NaN : Number(raw);
  if (!Number.isFinite(at)) return 0;
  const left = at + RESEND_COOLDOWN_MS - now;
  return left > 0 ? Math.min(left, RESEND_COOLDOWN_MS) : 0;
}

/** The remaining cooldown for an e-mail, re-read every second while it runs. */
export function useCooldown(email: string): { remaining: number; refresh: () => void } {
  const [remaining, setRemaining] = useState(() => cooldownRemaining(email));
  // Another e-mail has its own cooldown: read it while rendering rather than a tick later.
  const [shownFor, setShownFor] = useState(email);
  if (shownFor !== email) {
    setShownFor(email);
    setRemaining(cooldownRemaining(email));
  }
  useEffect(() => {
    const timer = window.setInterval(() => setRemaining(cooldownRemaining(email)), 1000);
    return () => window.clearInterval(timer);
  }, [email]);
  return { remaining, refresh: () => setRemaining(cooldownRemaining(email)) };
}
