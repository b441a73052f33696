/**
 * What passkeys need of the browser, shared by sign-in and Settings (issue 36): whether it can,
 * its answer with a closed dialog told apart, and the answer as JSON for the server.
 */

/** The person closed the browser's passkey dialog, or had no passkey of this site to offer. */
export class PasskeyCancelled extends Error {
  constructor() {
    super('The passkey request was cancelled');
  }
}

/** Whether this browser can use passkeys on this page (WebAuthn with its JSON forms). */
export function passkeysSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === 'function' &&
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function'
  );
}

/** The browser's answer; a dialog closed (or timed out) is [`PasskeyCancelled`]. */
export async function askBrowser(run: () => Promise<Credential | null>): Promise<PublicKeyCredential> {
  try {
    const credential = await run();
    if (!(credential instanceof PublicKeyCredential)) throw new PasskeyCancelled();
    return credential;
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
      throw new PasskeyCancelled();
    }
    throw error;
  }
}

/** The browser's answer as the server reads it (`credential.toJSON()`). */
export function credentialJson(credential: PublicKeyCredential): Record<string, unknown> {
  return credential.toJSON() as Record<string, unknown>;
}
