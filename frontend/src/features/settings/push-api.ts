/**
 * Web Push's calls in Settings (issue 36; beyond spec §7): the server's key and the account's devices,
 * turning notifications on for this browser, what each device is told about, a test, and
 * turning a device off. What the browser does lives in lib/push.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, request } from '../../lib/http';
import { currentSubscription, subscribe } from '../../lib/push';
import { suggestedName } from './passkeys-api';

type Schemas = components['schemas'];
/** What a device is told about. */
export type PushKinds = Schemas['PushKindsJson'];
/** A browser of the account that shows notifications; it ends with the session that added it. */
export type PushDevice = Schemas['PushDeviceJson'];
/** GET /account/push: the key to subscribe with (base64url P-256 VAPID key) and the devices. */
export type PushJson = Schemas['PushJson'];
/** POST /account/push/devices: `PushSubscription.toJSON()` and a name. */
export type AddPushDeviceRequest = Schemas['AddPushDeviceRequest'];
/** PATCH /account/push/devices/{id}: only the kinds that change. */
export type ChangePushDeviceRequest = Schemas['ChangePushDeviceRequest'];

const devicePath = (id: string) => `/account/push/devices/${encodeURIComponent(id)}`;

export const pushQueries = {
  all: () => ['account', 'push'] as const,
  /** The key and the devices; the viewer is in the key (another sign-in, another list). */
  devices: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...pushQueries.all(), 'devices', viewerId ?? null] as const,
      queryFn: ({ signal }) => request<PushJson>('/account/push', { signal, sessionScoped: true }),
    }),
  /** This browser's own subscription address, or null: the browser's answer, not the server's. */
  browser: () =>
    queryOptions({
      queryKey: [...pushQueries.all(), 'browser'] as const,
      queryFn: async () => (await currentSubscription())?.endpoint ?? null,
    }),
};

/** The longest name the server keeps. */
const NAME_MAX = 60;

/**
 * Subscribes this browser (after the permission asked in the click) and tells the server. When
 * the server refuses (the 20 devices, a limit), the subscription it will never use is ended.
 */
async function turnOnHere({
  publicKey,
  permission,
}: {
  publicKey: string;
  permission: Promise<NotificationPermission>;
}): Promise<PushDevice> {
  const subscription = await subscribe(publicKey, permission);
  const { endpoint, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('The browser gave an incomplete subscription');
  try {
    return await request<PushDevice>('/account/push/devices', {
      method: 'POST',
      json: {
        endpoint,
        keys: { p256dh: keys.p256dh, auth: keys.auth },
        name: suggestedName(navigator.userAgent).slice(0, NAME_MAX),
      } satisfies AddPushDeviceRequest,
      sessionScoped: true,
    });
  } catch (error) {
    await subscription.unsubscribe().catch(() => undefined);
    throw error;
  }
}

/**
 * Ends a device on the server (already gone counts as done). When it is this browser's (its
 * subscription has that address), the subscription ends too, so the push service forgets it.
 */
async function turnOff({ id, endpoint }: { id: string; endpoint: string }): Promise<void> {
  try {
    await request<undefined>(devicePath(id), { method: 'DELETE', sessionScoped: true });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  const here = await currentSubscription().catch(() => null);
  if (here?.endpoint === endpoint) await here.unsubscribe().catch(() => undefined);
}

function refresh(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: pushQueries.all() });
}

export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: turnOnHere, onSettled: () => refresh(queryClient) });
}

export function useTurnOffPush() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: turnOff, onSettled: () => refresh(queryClient) });
}

/** Saves what a device is told about; the answer replaces that device in the list at once. */
export function useChangePushKinds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, kinds }: { id: string } & ChangePushDeviceRequest) =>
      request<PushDevice>(devicePath(id), {
        method: 'PATCH',
        json: { kinds } satisfies ChangePushDeviceRequest,
        sessionScoped: true,
      }),
    onSuccess: (device) =>
      queryClient.setQueriesData<PushJson>({ queryKey: [...pushQueries.all(), 'devices'] }, (data) =>
        data ? { ...data, devices: data.devices.map((d) => (d.id === device.id ? device : d)) } : data,
      ),
    // 404: the device is gone (signed out there); the list is asked again.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 404) void refresh(queryClient);
    },
  });
}

/** The server pushes a test notification to the device (202). */
export function useSendTestPush() {
  return useMutation({
    mutationFn: (id: string) =>
      request<unknown>(`${devicePath(id)}/test`, { method: 'POST', sessionScoped: true }),
  });
}
