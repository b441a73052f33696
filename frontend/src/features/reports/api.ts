/**
 * Reporting someone's post (spec §4 Report dialog, §5 Report, §7 POST /reports/post, §8 Report)
 * or comment (POST /reports/comment, the same rules and answers). Only the Report dialog uses
 * this, and it comes with its first use: none of it is in the first load.
 */
import { useMutation } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, NetworkError, SESSION_EXPIRED_MESSAGE, request } from '../../lib/http';
import type { Lenient } from '../../lib/lenient';

export const REPORT_REASONS = ['Spam', 'Harassment', 'Hate speech', 'Other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What is reported: a post, or a comment. */
export interface ReportTarget {
  kind: 'post' | 'comment';
  id: string;
}

export const REPORT_WORDS = {
  title: 'Report post',
  description: 'Why are you reporting this post?',
  otherLabel: 'Tell us more',
  otherPlaceholder: 'What is wrong with this post?',
  submit: 'Submit report',
  submitting: 'Submitting...',
  cancel: 'Cancel',
  noReason: 'Please select or enter a reason.',
  submitted: 'Report submitted successfully. Thank you for helping keep our community safe.',
  failed: 'Failed to submit report',
  networkFailed: 'Failed to submit report. Please try again.',
} as const;

/** The words that name what is reported; a post's are the spec's. */
export const COMMENT_REPORT_WORDS = {
  title: 'Report comment',
  description: 'Why are you reporting this comment?',
  otherPlaceholder: 'What is wrong with this comment?',
} as const;

export function reportWords(target: ReportTarget) {
  return target.kind === 'comment' ? { ...REPORT_WORDS, ...COMMENT_REPORT_WORDS } : REPORT_WORDS;
}

/** POST /reports/post: the generated ReportJson, with one of the four reasons and the text of Other. */
export type PostReportBody = components['schemas']['ReportJson'] & {
  reason: ReportReason;
  /** The trimmed text for Other; null for the rest. */
  description: string | null;
};

/** POST /reports/comment: the post report's fields with the comment's id. */
export type CommentReportBody = components['schemas']['CommentReportJson'] & {
  reason: ReportReason;
  description: string | null;
};

export type ReportBody = PostReportBody | CommentReportBody;

/**
 * What is sent for a choice (spec §5): the reason, with the trimmed text as description for
 * Other; null when nothing valid was chosen (no reason, or Other with blank text).
 */
export function reportBody(target: ReportTarget, reason: ReportReason | null, otherText: string): ReportBody | null {
  if (!reason) return null;
  const description = reason === 'Other' ? otherText.trim() : null;
  if (reason === 'Other' && !description) return null;
  return target.kind === 'comment'
    ? { comment_id: target.id, reason, description }
    : { post_id: target.id, reason, description };
}

/** What a failed report says (spec §8): the server's detail, or the spec's fallbacks. */
export function reportErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return SESSION_EXPIRED_MESSAGE;
    return error.serverMessage ?? REPORT_WORDS.failed;
  }
  if (error instanceof NetworkError) return REPORT_WORDS.networkFailed;
  return REPORT_WORDS.failed;
}

/** Sends a report of a post or a comment; a 401 ends the stored session (spec §8 Feeds). */
export function useReport() {
  return useMutation({
    mutationFn: (body: ReportBody) =>
      request<Lenient<components['schemas']['Message']> | undefined>(
        'comment_id' in body ? '/reports/comment' : '/reports/post',
        { method: 'POST', json: body, sessionScoped: true },
      ),
    onError: (error) => console.error('Report failed', error),
  });
}
