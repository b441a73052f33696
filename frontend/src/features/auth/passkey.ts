/**
 * Passkeys in the browser (issue 36; beyond spec §7): the server's options go through the
 * browser's own JSON forms of WebAuthn (`PublicKeyCredential.parse…OptionsFromJSON`,
 * `credential.toJSON()`), so no library is loaded. Signing in needs no address: the browser
 * offers this site's passkeys, and the one picked says whose it is.
 */
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';
import { askBrowser, credentialJson } from '../../lib/passkey';
import type { SignInResponse } from './api';

type Schemas = components['schemas'];
type Options = Schemas['PasskeyOptionsJson'];

/** Signs in with one of this site's passkeys: answered as a password sign-in is. */
export async function signInWithPasskey(): Promise<SignInResponse> {
  const options = await request<Options>('/authorization/passkey-sign-in/options', { method: 'POST', token: null });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(
    options.public_key as unknown as PublicKeyCredentialRequestOptionsJSON,
  );
  const credential = await askBrowser(() => navigator.credentials.get({ publicKey }));
  return request<SignInResponse>('/authorization/passkey-sign-in', {
    method: 'POST',
    json: { ceremony: options.ceremony, credential: credentialJson(credential) } satisfies Schemas['PasskeySignInRequest'],
    token: null,
  });
}
