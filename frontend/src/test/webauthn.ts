/**
 * A stand-in for the browser's WebAuthn in jsdom (which has none): `PublicKeyCredential` with
 * its JSON parsers and `navigator.credentials` answering with a credential whose `toJSON()` is
 * `answer`, or refusing as a closed dialog does. What the page passed is recorded.
 */
import { vi } from 'vitest';

export interface FakeWebAuthn {
  /** The options the page asked the browser with (`create` or `get`). */
  asked: Array<{ kind: 'create' | 'get'; options: unknown }>;
  restore: () => void;
}

export function fakeWebAuthn({ answer, cancel = false }: { answer: Record<string, unknown>; cancel?: boolean }): FakeWebAuthn {
  class FakeCredential {
    toJSON() {
      return answer;
    }
  }
  const parse = (options: unknown) => ({ parsed: options });
  Object.assign(FakeCredential, { parseCreationOptionsFromJSON: parse, parseRequestOptionsFromJSON: parse });
  const asked: FakeWebAuthn['asked'] = [];
  const respond = (kind: 'create' | 'get') => (options: unknown) => {
    asked.push({ kind, options });
    if (cancel) return Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'));
    return Promise.resolve(new FakeCredential());
  };
  vi.stubGlobal('PublicKeyCredential', FakeCredential);
  vi.stubGlobal('isSecureContext', true);
  const credentials = { create: respond('create'), get: respond('get') };
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true });
  return {
    asked,
    restore: () => {
      vi.unstubAllGlobals();
      Reflect.deleteProperty(navigator, 'credentials');
    },
  };
}
