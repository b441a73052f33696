/**
 * Reporting someone's post (spec §4 Report dialog, §5 Report, §7 POST /reports/post, §8 Report).
 * Only the Report dialog uses this, and it comes with its first use: none of it is in the first
 * load.
 */
import { useMutation } from '@tanstack/react-query';
import type { components } from '../../lib/api-schema';
import { ApiError, NetworkError, SESSION_EXPIRED_MESSAGE, request } from '../../lib/http';
import type { Lenient } from '../../lib/lenient';

export const REPORT_REASONS = ['Spam', 'Harassment', 'Hate speech', 'Other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

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

/** POST /reports/post: the generated ReportJson, with one of the four reasons and the text of Other. */
export type ReportBody = components['schemas']['ReportJson'] & {
  reason: ReportReason;
  /** The trimmed text for Other; null for the rest. */
  description: string | null;
};

/**
 * What is sent for a choice (spec §5): the reason, with the trimmed text as description for
 * Other; null when nothing valid was chosen (no reason, or Other with blank text).
 */
export function reportBody(postId: string, reason: ReportReason | null, otherText: string): ReportBody | null {
  if (!reason) return null;
  if (reason !== 'Other') return { post_id: postId, reason, description: null };
  const description = otherText.trim();
  return description ? { post_id: postId, reason, description } : null;
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

/** Sends a report; a 401 ends the stored session (spec §8 Feeds). */
export function useReportPost() {
  return useMutation({
    mutationFn: (body: ReportBody) =>
      request<Lenient<components['schemas']['Message']> | undefined>('/reports/post', { method: 'POST', json: body, sessionScoped: true }),
    onError: (error) => console.error('Report failed', error),
  });
}
