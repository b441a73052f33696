/**
 * Calls of the admin panel (spec §7 Notifications and admin; §2 Admin panel): the analytics
 * cards, the per-day counts of the chart, the complaints and their resolution, with their React
 * Query factories and the spec's words (§8 Admin). Pending complaints come grouped by the post
 * or comment they are about (GET /admin/reports/groups), resolved ones as the spec's list
 * (GET /admin/reports?status=resolved); both page with Load More.
 *
 * Every query carries the viewer's id in its key: an admin's cached complaints must never show
 * to the next account that signs in on the same tab (the sign-in page lets a non-admin switch
 * accounts from here). A 401 on these calls ends the stored session (the app's 401 rule), with
 * the spec's words 'Authentication required'.
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
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
/** GET /admin/reports/groups: pending complaints about one post or comment. */
export type ComplaintGroupJson = Schemas['ComplaintGroupJson'];
/** A reported comment; `content` is null once it is deleted. */
export type ReportedCommentJson = Schemas['ReportedCommentJson'];
/** POST /admin/reports/{id}/resolve; `resolved`: every complaint the decision closed. */
export type ResolveAnswerJson = Schemas['ResolvedJson'];

/**
 * A complaint as `toComplaint` reads it: with no status it is pending and with no audit it has
 * none (spec §2), so those two may be missing or null; without a target it is about a post.
 */
export type ComplaintInput = Omit<ComplaintJson, 'status' | 'audit' | 'target_type'> & {
  status?: string | null;
  audit?: AuditJson[] | null;
  target_type?: string | null;
};

/** The server's statuses and decisions (its document says string; these are its words). */
const STATUSES = ['pending', 'deleted', 'ignored'] as const;
export type ComplaintStatus = (typeof STATUSES)[number];
export type ResolveAction = 'delete_post' | 'delete_comment' | 'ignore';
/** What a complaint is about. */
export type TargetType = 'post' | 'comment';

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
  targetType: TargetType;
  /** The reported comment (on `postId`), for a comment's complaint. */
  comment: ReportedComment | null;
}

export interface ReportedComment {
  id: string;
  /** Its text; null once it is deleted. */
  content: string | null;
  author: PersonJson | null;
}

/** Pending complaints about one post or comment: one row of the to-do list. */
export interface ComplaintGroup {
  /** `post:{id}` or `comment:{id}`. */
  key: string;
  /** Where the next page starts after this group. */
  cursor: string;
  targetType: TargetType;
  postId: string;
  count: number;
  /** Each reason with its count, the most frequent first. */
  reasons: { reason: string; count: number }[];
  /** e.g. 'comment by @bob on a lyrics post by @ana' */
  title: string;
  postType: string;
  postExists: boolean;
  postAuthor: PersonJson | null;
  postLink: string;
  comment: ReportedComment | null;
  lastReportedAt: string;
  /** The newest complaints (at most 20), newest first. */
  complaints: Complaint[];
}

export const UNKNOWN_REPORTER = 'Unknown';

function toReportedComment(json: ReportedCommentJson | null | undefined): ReportedComment | null {
  if (!json) return null;
  return { id: String(json.id), content: json.exists === false ? null : (json.content ?? null), author: json.author ?? null };
}

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
    targetType: json.target_type === 'comment' || json.comment_id ? 'comment' : 'post',
    comment: toReportedComment(json.comment),
  };
}

export function toComplaintGroup(json: ComplaintGroupJson): ComplaintGroup {
  const targetType: TargetType = json.target_type === 'comment' || json.comment_id ? 'comment' : 'post';
  return {
    key: targetType === 'comment' ? `comment:${String(json.comment_id)}` : `post:${String(json.post_id)}`,
    cursor: json.cursor,
    targetType,
    postId: String(json.post_id),
    count: json.count,
    reasons: json.reasons ?? [],
    title: json.title ?? '',
    postType: json.post_type ?? '',
    postExists: json.post_exists !== false,
    postAuthor: json.post_author ?? null,
    postLink: json.post_link,
    comment: toReportedComment(json.comment),
    lastReportedAt: json.last_reported_at,
    complaints: (json.complaints ?? []).map(toComplaint),
  };
}

// ---------------------------------------------------------------------------------------------
// Calls

/** The admin calls' 401 ends the stored session; the sign-in page then says why. */
const ADMIN_CALL: RequestOptions = { sessionScoped: true, expiredNotice: ADMIN_MESSAGES.authRequired };

/** How many days the chart shows. */
export const CHART_DAYS = 30;
/** How many groups of pending complaints a page holds (as feeds: the server's default). */
export const GROUPS_PAGE = 10;
/** How many resolved complaints a page holds. */
export const RESOLVED_PAGE = 20;

export function fetchAnalytics(signal?: AbortSignal): Promise<AnalyticsCardJson[]> {
  return request<AnalyticsCardJson[]>('/admin/analytics', { ...ADMIN_CALL, signal });
}

export function fetchDailyCounts(days: number, signal?: AbortSignal): Promise<DailyCountsJson[]> {
  return request<DailyCountsJson[]>(`/admin/analytics/daily?days=${days}`, { ...ADMIN_CALL, signal });
}

/** A page of pending complaints grouped by item, most reported first, after `before` (a cursor). */
export async function fetchComplaintGroups(before: string | null, signal?: AbortSignal): Promise<ComplaintGroup[]> {
  const params = new URLSearchParams({ limit: String(GROUPS_PAGE) });
  if (before) params.set('before', before);
  const list = await request<ComplaintGroupJson[]>(`/admin/reports/groups?${params.toString()}`, { ...ADMIN_CALL, signal });
  return list.map(toComplaintGroup);
}

/** A page of resolved complaints, most recent first, after the complaint `before`. */
export async function fetchResolvedComplaints(before: string | null, signal?: AbortSignal): Promise<Complaint[]> {
  const params = new URLSearchParams({ status: 'resolved', limit: String(RESOLVED_PAGE) });
  if (before) params.set('before', before);
  const list = await request<ComplaintInput[]>(`/admin/reports?${params.toString()}`, { ...ADMIN_CALL, signal });
  return list.map(toComplaint);
}

/**
 * Decides about a complaint (spec §7); with `scope: 'item'`, ignoring closes every open complaint
 * about the same post or comment (a group's row).
 */
export function resolveComplaint(
  id: string,
  action: ResolveAction,
  scope: 'report' | 'item' = 'report',
): Promise<Lenient<ResolveAnswerJson> | undefined> {
  const json: Schemas['ResolveJson'] = scope === 'item' ? { action, scope } : { action };
  return request<Lenient<ResolveAnswerJson> | undefined>(`/admin/reports/${encodeURIComponent(id)}/resolve`, {
    ...ADMIN_CALL,
    method: 'POST',
    json,
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
  /** The to-do list: pending complaints grouped by item, a page of groups at a time. */
  groups: (viewerId: string | undefined) =>
    infiniteQueryOptions({
      queryKey: [...adminQueries.allComplaints(), viewerId ?? null, 'groups'] as const,
      queryFn: ({ pageParam, signal }) => fetchComplaintGroups(pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: ComplaintGroup[]) => (last.length < GROUPS_PAGE ? null : (last.at(-1)?.cursor ?? null)),
      enabled: Boolean(viewerId),
      retry: retryUnlessRefused,
    }),
  /** What was decided, most recent first. */
  resolved: (viewerId: string | undefined) =>
    infiniteQueryOptions({
      queryKey: [...adminQueries.allComplaints(), viewerId ?? null, 'resolved'] as const,
      queryFn: ({ pageParam, signal }) => fetchResolvedComplaints(pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last: Complaint[]) => (last.length < RESOLVED_PAGE ? null : (last.at(-1)?.id ?? null)),
      enabled: Boolean(viewerId),
      retry: retryUnlessRefused,
    }),
};

export type GroupPages = InfiniteData<ComplaintGroup[], string | null>;

// ---------------------------------------------------------------------------------------------
// Resolving

export interface ResolveVariables {
  /** The complaint decided about: a group's newest, or a resolved one's own. */
  complaint: Pick<Complaint, 'id' | 'postId' | 'targetType'>;
  action: ResolveAction;
  /** A group's row decides about every open complaint on its item. */
  scope?: 'report' | 'item';
}

/** The status a decision leaves a complaint in. */
export const STATUS_AFTER: Record<ResolveAction, ComplaintStatus> = {
  delete_post: 'deleted',
  delete_comment: 'deleted',
  ignore: 'ignored',
};

/** The delete action for what a complaint is about. */
export function deleteActionFor(target: TargetType): ResolveAction {
  return target === 'comment' ? 'delete_comment' : 'delete_post';
}

/**
 * Delete the post or comment, or ignore (spec §4 Complaint). On success the group leaves the
 * to-do list at once (with, for a deleted post, the groups of its comments, which the server
 * closes too), and the panel's lists and counts are fetched again for the audit log. Deleting
 * refreshes every post list too (the 'posts' topic: a post gone, or a comment count).
 */
export function useResolveComplaint(viewerId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ complaint, action, scope }: ResolveVariables) => resolveComplaint(complaint.id, action, scope),
    onSuccess: (_answer, { complaint, action }) => {
      const gone = (g: ComplaintGroup) =>
        g.complaints.some((c) => c.id === complaint.id) || (action === 'delete_post' && g.postId === complaint.postId);
      queryClient.setQueryData<GroupPages>(adminQueries.groups(viewerId).queryKey, (data) =>
        data ? { ...data, pages: data.pages.map((page) => (page.some(gone) ? page.filter((g) => !gone(g)) : page)) } : data,
      );
      void queryClient.invalidateQueries({ queryKey: adminQueries.all() });
      if (action !== 'ignore') void invalidateTopics(queryClient, ['posts']);
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
