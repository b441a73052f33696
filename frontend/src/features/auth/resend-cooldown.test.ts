import { describe, expect, it } from 'vitest';
import { formatCountdown } from '../../lib/format';
import { RESEND_COOLDOWN_MS, cooldownRemaining, startCooldown, startCooldownEndingIn } from './resend-cooldown';
import { resendLabel } from './verify-page';

describe('resend cooldown', () => {
  it('lasts 3 minutes from a resend', () => {
    expect(RESEND_COOLDOWN_MS).toBe(180_000);
    startCooldown('ada@example.com', 1_000_000);
    expect(cooldownRemaining('ada@example.com', 1_000_000)).toBe(180_000);
    expect(cooldownRemaining('ada@example.com', 1_019_000)).toBe(161_000);
    expect(cooldownRemaining('ada@example.com', 1_180_000)).toBe(0);
    expect(cooldownRemaining('ada@example.com', 2_000_000)).toBe(0);
  });

  it('is kept per e-mail (case and spaces do not matter)', () => {
    startCooldown('Ada@Example.com ', 1_000_000);
    expect(cooldownRemaining('ada@example.com', 1_000_000)).toBe(180_000);
    expect(cooldownRemaining('bob@example.com', 1_000_000)).toBe(0);
  });

  it('can follow the wait the server announced', () => {
    startCooldownEndingIn('ada@example.com', 161_000, 5_000_000);
    expect(formatCountdown(cooldownRemaining('ada@example.com', 5_000_000))).toBe('2:41');
  });

  it('ignores garbage in storage', () => {
    localStorage.setItem('verification_resend_at:ada@example.com', 'soon');
    expect(cooldownRemaining('ada@example.com')).toBe(0);
  });
});

describe('resendLabel', () => {
  it('reads Resend Email, Sending... or Wait m:ss', () => {
    expect(resendLabel(false, 0)).toBe('Resend Email');
    expect(resendLabel(true, 0)).toBe('Sending...');
    expect(resendLabel(false, 161_000)).toBe('Wait 2:41');
    expect(resendLabel(false, 180_000)).toBe('Wait 3:00');
  });
});
