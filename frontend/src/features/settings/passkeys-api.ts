/**
 * Passkeys' calls in Settings (issue 36; beyond spec §7): the list, adding one (the password
 * again, then the browser makes the passkey), renaming and removing.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';
import { askBrowser, credentialJson } from '../../lib/passkey';

type Schemas = components['schemas'];
export type PasskeyJson = Schemas['PasskeyJson'];

export const passkeyQueries = {
  list: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: ['auth', 'passkeys', viewerId ?? null] as const,
      queryFn: ({ signal }) => request<PasskeyJson[]>('/authorization/passkeys', { signal, sessionScoped: true }),
    }),
};

/** Asks the server for the options (with the password), the browser for the passkey, then keeps it. */
async function addPasskey({ password, name }: { password: string; name: string }): Promise<PasskeyJson> {
  const options = await request<Schemas['PasskeyOptionsJson']>('/authorization/passkeys/options', {
    method: 'POST',
    json: { password } satisfies Schemas['PasskeyPasswordRequest'],
    sessionScoped: true,
  });
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(
    options.public_key as unknown as PublicKeyCredentialCreationOptionsJSON,
  );
  const credential = await askBrowser(() => navigator.credentials.create({ publicKey }));
  return request<PasskeyJson>('/authorization/passkeys', {
    method: 'POST',
    json: { ceremony: options.ceremony, name, credential: credentialJson(credential) } satisfies Schemas['AddPasskeyRequest'],
    sessionScoped: true,
  });
}

function usePasskeyChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['auth', 'passkeys'] }),
  });
}

export function useAddPasskey() {
  return usePasskeyChange(addPasskey);
}

export function useRenamePasskey() {
  return usePasskeyChange(({ id, name }: { id: string; name: string }) =>
    request<PasskeyJson>(`/authorization/passkeys/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      json: { name } satisfies Schemas['RenamePasskeyRequest'],
      sessionScoped: true,
    }),
  );
}

export function useRemovePasskey() {
  return usePasskeyChange((id: string) =>
    request<Schemas['Message']>(`/authorization/passkeys/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      sessionScoped: true,
    }),
  );
}

/** A name for a new passkey from the browser it is made in: "Chrome on Android", "Safari on Mac". */
export function suggestedName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iPhone'
      : /Mac OS X/.test(userAgent)
        ? 'Mac'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}
