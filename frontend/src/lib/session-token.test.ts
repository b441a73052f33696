import { describe, expect, it } from 'vitest';
import { tokenViewerId } from './session';
import { storeToken } from './token-storage';

/** A token shaped as the server's (header.claims.signature, base64url), with these claims. */
function jwt(claims: object): string {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

describe('tokenViewerId (who asks, before the session check answers)', () => {
  const later = Math.floor(Date.now() / 1000) + 3600;

  it('is nobody without a token', () => {
    expect(tokenViewerId()).toBeNull();
  });

  it("is the token's subject while it has not expired", () => {
    storeToken(jwt({ sub: '7421', sid: '1', iat: later - 60, exp: later, iss: 'selfsound', aud: 'selfsound' }));
    expect(tokenViewerId()).toBe('7421');
  });

  it('cannot tell for an expired or unreadable token: the check decides', () => {
    storeToken(jwt({ sub: '7421', exp: Math.floor(Date.now() / 1000) - 5 }));
    expect(tokenViewerId()).toBeUndefined();
    storeToken('not-a-token');
    expect(tokenViewerId()).toBeUndefined();
    storeToken(jwt({ exp: later }));
    expect(tokenViewerId()).toBeUndefined();
  });
});
