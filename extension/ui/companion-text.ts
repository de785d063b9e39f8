/**
 * What the popup and the options page say about a companion failure: the problem in the user's
 * language with what to do about it, or the background's own sentence when the problem carries
 * a detail only the companion could give.
 */
import type { CompanionFailure, CrawlProblem, Failure } from '../messages/views.ts';
import type { Translate } from './i18n.ts';

/** One message key per problem (null: shown as the background wrote it); `$1` is the port, `$2` the detail. */
const PROBLEM_KEYS: Record<CrawlProblem, string | null> = {
  'not-paired': 'companionNotPaired',
  'not-running': 'companionNotRunning',
  'token-refused': 'companionTokenRefused',
  'origin-refused': 'companionOriginRefused',
  'not-found': 'companionNotFound',
  'request-refused': 'companionRequestRefused',
  'service-error': 'companionServiceError',
  timeout: 'companionTimeout',
  'not-companion': 'companionNotCompanion',
  'no-topic': 'companionNoTopic',
  'no-examples': 'companionNoExamples',
  'not-web-page': 'companionNotWebPage',
  'no-crawl': 'companionNoCrawl',
  'topic-gone': 'companionTopicGone',
  'bad-labels': 'companionBadLabels',
  internal: null,
};

/** Problems whose message needs the detail; without one the English line is shown. */
const NEEDS_DETAIL: ReadonlySet<CrawlProblem> = new Set(['request-refused', 'service-error', 'bad-labels']);

export function isCompanionFailure(reply: Failure): reply is CompanionFailure {
  return 'problem' in reply && typeof (reply as CompanionFailure).problem === 'string';
}

/** The line to show for a failed companion request. */
export function failureText(t: Translate, reply: Failure): string {
  if (!isCompanionFailure(reply)) return reply.error;
  const key = PROBLEM_KEYS[reply.problem];
  if (!key || (NEEDS_DETAIL.has(reply.problem) && reply.detail === undefined)) return reply.error;
  return t(key, reply.port, reply.detail ?? '');
}
