/**
 * Calls of the admin panel (spec §7 Notifications and admin; §2 Admin panel): the analytics
 * cards, the per-day counts of the chart, the complaints and their resolution, with their React
 * Query factories and the spec's words (§8 Admin).
 *
 * Every query carries the viewer's id in its key: an admin's cached complaints must never show
 * to the next account that signs in on the same tab (the sign-in page lets a non-admin switch
 * accounts from here). A 401 on these calls ends the stored session (the app's 401 rule), with
 * the spec's words 'Authentication required'.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, request, type RequestOptions } from '../../lib/http';
import type { Lenient } from '../../lib/lenient';
import { invalidateTopics } from '../../lib/query-client';

// ---------------------------------------------------------------------------------------------
// The spec's words (§8 Admin, §2 Admin panel)

export const ADMIN_MESSAGES = {
  adminRequired: 'Admin access required',
  authRequired: 'Authentication required',
  httpError: (status: number) => `HTTP error! status: ${status}`,
  reportsFailed: 'Failed to load reports',
  analyticsFailed: 'Failed to load analytics',
  resolveFailed: 'Failed to resolve report',
  deleted: 'Report deleted successfully',
  ignored: 'Report ignored successfully',
  noReports: 'No reports found',
  tryAgain: 'Try Again',
} as const;

// ---------------------------------------------------------------------------------------------
// Wire types, generated from the server's OpenAPI document (lib/api-schema.ts)

type Schemas = components['schemas'];

/** GET /admin/analytics: one card (spec §3 Analytics card). */
export type AnalyticsCardJson = Schemas['CardJson'];
/** GET /admin/analytics/daily: one day of the chart (date YYYY-MM-DD, UTC), oldest first. */
export type DailyCountsJson = Schemas['DayJson'];
/** A reporter or a post's author. */
export type PersonJson = Schemas['UserJson'];
/** One decision about a complaint; `admin_id` is null when it was not made in the panel. */
export type AuditJson = Schemas['AuditJson'];
/** GET /admin/reports: one complaint (spec §3 Complaint, with what the panel adds). */
export type ComplaintJson = Schemas['ComplaintJson'];
/** POST /admin/reports/{id}/resolve; `resolved`: every complaint the decision closed. */
export type ResolveAnswerJson = Schemas['ResolvedJson'];

/**
 * A complaint as `toComplaint` reads it: with no status it is pending and with no audit it has
 * none (spec §2), so those two may be missing or null.
 */
export type ComplaintInput = Omit<ComplaintJson, 'status' | 'audit'> & {
  status?: string | null;
  audit?: AuditJson[] | null;
};

/** The server's statuses and decisions (its document says string; these are its words). */
const STATUSES = ['pending', 'deleted', 'ignored'] as const;
export type ComplaintStatus = (typeof STATUSES)[number];
export type ResolveAction = 'delete_post' | 'ignore';

/** A status as the panel shows it: the server's word, or `fallback` for none or another. */
function statusOf(value: string | null | undefined, fallback: ComplaintStatus): ComplaintStatus {
  return STATUSES.find((status) => status === value) ?? fallback;
}

// ---------------------------------------------------------------------------------------------
// What the screens show

export interface Complaint {
  id: string;
  title: string;
  data: string;
  /** '' when the reporter's account is gone. */
  reporterId: string;
  /** The reporter's name, or 'Unknown' (spec §2). */
  reporterName: string;
  reporter: PersonJson | null;
  postId: string;
  reason: string;
  /** Trimmed; '' when there is none (then the details leave the line out). */
  description: string;
  postLink: string;
  /** 'pending' when the server sent none (spec §2). */
  status: ComplaintStatus;
  createdAt: string;
  resolvedAt: string | null;
  postType: string;
  postExists: boolean;
  postAuthor: PersonJson | null;
  audit: AuditJson[];
}

export const UNKNOWN_REPORTER = 'Unknown';

export function toComplaint(json: ComplaintInput): Complaint {
  return {
    id: String(json.id),
    title: json.title ?? '',
    data: json.data ?? '',
    reporterId: json.reporter_id ? String(json.reporter_id) : '',
    reporterName: json.reporter_name?.trim() || json.reporter?.name?.trim() || UNKNOWN_REPORTER,
    reporter: json.reporter ?? null,
    postId: String(json.post_id),
    reason: json.reason ?? '',
    description: json.description?.trim() ?? '',
    postLink: json.post_link,
    status: statusOf(json.status, 'pending'),
    createdAt: json.created_at,
    resolvedAt: json.resolved_at ?? null,
    postType: json.post_type ?? '',
    postExists: json.post_exists !== false,
    postAuthor: json.post_author ?? null,
    audit: json.audit ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// Calls

/** The admin calls' 401 ends the stored session; the sign-in page then says why. */
const ADMIN_CALL: RequestOptions = { sessionScoped: true, expiredNotice: ADMIN_MESSAGES.authRequired };

/** How many days the chart shows. */
export const CHART_DAYS = 30;
/** How many complaints the panel asks for (pending first). */
export const COMPLAINTS_LIMIT = 100;

export function fetchAnalytics(signal?: AbortSignal): Promise<AnalyticsCardJson[]> {
  return request<AnalyticsCardJson[]>('/admin/analytics', { ...ADMIN_CALL, signal });
}

export function fetchDailyCounts(days: number, signal?: AbortSignal): Promise<DailyCountsJson[]> {
  return request<DailyCountsJson[]>(`/admin/analytics/daily?days=${days}`, { ...ADMIN_CALL, signal });
}

export async function fetchComplaints(signal?: AbortSignal): Promise<Complaint[]> {
  const list = await request<ComplaintInput[]>(`/admin/reports?status=all&limit=${COMPLAINTS_LIMIT}`, {
    ...ADMIN_CALL,
    signal,
  });
  return list.map(toComplaint);
}

export function resolveComplaint(id: string, action: ResolveAction): Promise<Lenient<ResolveAnswerJson> | undefined> {
  return request<Lenient<ResolveAnswerJson> | undefined>(`/admin/reports/${encodeURIComponent(id)}/resolve`, {
    ...ADMIN_CALL,
    method: 'POST',
    json: { action } satisfies Schemas['ResolveJson'],
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Why the server refused the panel: the notice the sign-in page shows, or null. */
export function refusalOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 403) return ADMIN_MESSAGES.adminRequired;
  if (error.status === 401) return ADMIN_MESSAGES.authRequired;
  return null;
}

/** What a failed complaints load says (spec §8 Admin). */
export function complaintsErrorMessage(error: unknown): string {
  const refusal = refusalOf(error);
  if (refusal) return refusal;
  if (error instanceof ApiError) return ADMIN_MESSAGES.httpError(error.status);
  return ADMIN_MESSAGES.reportsFailed;
}

/** What a failed analytics load says (spec §8 Admin). */
export function analyticsErrorMessage(error: unknown): string {
  return refusalOf(error) ?? ADMIN_MESSAGES.analyticsFailed;
}

/** A refusal or a missing page stays so: answer at once instead of asking again. */
function retryUnlessRefused(failures: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status < 500) && failures < 1;
}

// ---------------------------------------------------------------------------------------------
// Query factories

export const adminQueries = {
  all: () => ['admin'] as const,
  analytics: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'analytics', viewerId ?? null] as const,
      queryFn: ({ signal }) => fetchAnalytics(signal),
      enabled: Boolean(viewerId),
      retry: retryUnlessRefused,
      // Post counts are among the cards.
      meta: { shows: ['posts'] },
    }),
  daily: (viewerId: string | undefined, days: number) =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'daily', viewerId ?? null, days] as const,
      queryFn: ({ signal }) => fetchDailyCounts(days, signal),
      enabled: Boolean(viewerId),
      retry: retryUnlessRefused,
      meta: { shows: ['posts'] },
    }),
  allComplaints: () => [...adminQueries.all(), 'complaints'] as const,
  complaints: (viewerId: string | undefined) =>
    queryOptions({
      queryKey: [...adminQueries.allComplaints(), viewerId ?? null, 'all', COMPLAINTS_LIMIT] as const,
      queryFn: ({ signal }) => fetchComplaints(signal),
      enabled: Boolean(viewerId),
      retry: retryUnlessRefused,
    }),
};

// ---------------------------------------------------------------------------------------------
// Resolving

export interface ResolveVariables {
  complaint: Complaint;
  action: ResolveAction;
}

/** The status a decision leaves a complaint in. */
export const STATUS_AFTER: Record<ResolveAction, ComplaintStatus> = { delete_post: 'deleted', ignore: 'ignored' };

/**
 * Delete the post or ignore the complaint (spec §4 Complaint). On success it leaves the pending
 * list at once (with every other open complaint about a deleted post, which the server closes
 * too), and the panel's lists and counts are fetched again for the audit log. Deleting a post
 * also refreshes every post list (the 'posts' topic).
 */
export function useResolveComplaint(viewerId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ complaint, action }: ResolveVariables) => resolveComplaint(complaint.id, action),
    onSuccess: (answer, { complaint, action }) => {
      const now = new Date().toISOString();
      const status = statusOf(answer?.status, STATUS_AFTER[action]);
      const closed = new Set((answer?.resolved ?? []).map(String));
      const closes = (c: Complaint) =>
        c.id === complaint.id ||
        closed.has(c.id) ||
        (action === 'delete_post' && c.postId === complaint.postId && c.status === 'pending');
      queryClient.setQueryData<Complaint[]>(adminQueries.complaints(viewerId).queryKey, (list) =>
        list?.map((c) =>
          closes(c)
            ? {
                ...c,
                status: c.id === complaint.id || action === 'ignore' ? status : 'deleted',
                resolvedAt: now,
                postExists: action === 'delete_post' ? false : c.postExists,
              }
            : c,
        ),
      );
      void queryClient.invalidateQueries({ queryKey: adminQueries.all() });
      if (action === 'delete_post') void invalidateTopics(queryClient, ['posts']);
    },
    onError: (error) => {
      // Someone else decided first (409): show how things stand now.
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: adminQueries.allComplaints() });
      }
    },
  });
}

/** What a failed decision says: the server's words, or the spec's (§8 Admin). */
export function resolveErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? ADMIN_MESSAGES.resolveFailed;
  return ADMIN_MESSAGES.resolveFailed;
}
