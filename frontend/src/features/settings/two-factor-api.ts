/**
 * Two-factor sign-in's calls (issue 36; beyond spec §7): whether it is on, the set-up with the
 * password again, turning it on with a first code (answered with the recovery codes), new
 * recovery codes and turning it off, each for a code.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { request } from '../../lib/http';

type Schemas = components['schemas'];
export type TwoFactorStatus = Schemas['TwoFactorJson'];
export type TwoFactorSetup = Schemas['TwoFactorSetupJson'];
type RecoveryCodes = Schemas['RecoveryCodesJson'];

export const twoFactorQueries = {
  status: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: ['auth', 'two-factor', viewerId ?? null] as const,
      queryFn: ({ signal }) =>
        request<TwoFactorStatus>('/authorization/two-factor', { signal, sessionScoped: true }),
    }),
};

function post<T>(path: string, json: object): Promise<T> {
  return request<T>(path, { method: 'POST', json, sessionScoped: true });
}

/** Every change answers the new state: the status is asked again once it is made. */
function useTwoFactorChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['auth', 'two-factor'] }),
  });
}

export function useStartTwoFactor() {
  return useMutation({
    mutationFn: (password: string) =>
      post<TwoFactorSetup>('/authorization/two-factor/setup', { password } satisfies Schemas['PasswordRequest']),
  });
}

export function useEnableTwoFactor() {
  return useTwoFactorChange((code: string) =>
    post<RecoveryCodes>('/authorization/two-factor/enable', { code } satisfies Schemas['CodeRequest']),
  );
}

export function useRenewRecoveryCodes() {
  return useTwoFactorChange((code: string) =>
    post<RecoveryCodes>('/authorization/two-factor/recovery-codes', { code } satisfies Schemas['CodeRequest']),
  );
}

export function useDisableTwoFactor() {
  return useTwoFactorChange((code: string) =>
    post<Schemas['Message']>('/authorization/two-factor/disable', { code } satisfies Schemas['CodeRequest']),
  );
}
