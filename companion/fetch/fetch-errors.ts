/**
 * Fetch failures named for the reaction they need (STYLE.md 9): `retry` (worth another try
 * later: timeouts, resets, 5xx), `skip` (this page will not get better: 404, not HTML, DNS
 * failure, bad TLS), `stop` (the caller is shutting the crawl down). The decision is made here
 * and only here, so the crawl loop never inspects error codes itself.
 */
import type { FetchedPage, NoAnswerOutcome } from './types.ts';

export type FetchReaction = 'retry' | 'skip' | 'stop';

/** What a thrown network-level error means for the crawl. */
export interface FetchFailure {
  outcome: NoAnswerOutcome;
  /** One line, safe to print next to the URL. */
  message: string;
  retryable: boolean;
  reaction: FetchReaction;
  /** The Node/undici code that decided it (`ECONNRESET`, `UND_ERR_CONNECT_TIMEOUT`, …), if any. */
  code?: string;
  /** The original error, untouched. */
  cause: unknown;
}

/**
 * Our own wall-clock deadline (`responseTimeoutMs`), used as the abort reason so that a timeout
 * is told apart from a caller's abort.
 */
export class ResponseDeadlineError extends Error {
  override name = 'TimeoutError';
  readonly code = 'LINKSCENT_RESPONSE_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`response not complete within ${timeoutMs} ms`);
  }
}

interface Rule {
  outcome: FetchFailure['outcome'];
  retryable: boolean;
  message: (err: CodedError) => string;
}

type CodedError = Error & { code?: string; errno?: number; syscall?: string };

const RULES: Record<string, Rule> = {
  LINKSCENT_RESPONSE_TIMEOUT: { outcome: 'timeout', retryable: true, message: (e) => e.message },
  UND_ERR_CONNECT_TIMEOUT: { outcome: 'timeout', retryable: true, message: () => 'connect timed out' },
  UND_ERR_HEADERS_TIMEOUT: { outcome: 'timeout', retryable: true, message: () => 'no response headers in time' },
  UND_ERR_BODY_TIMEOUT: { outcome: 'timeout', retryable: true, message: () => 'response body stalled' },
  ETIMEDOUT: { outcome: 'timeout', retryable: true, message: () => 'connection timed out' },
  ECONNREFUSED: { outcome: 'network-error', retryable: true, message: () => 'connection refused' },
  ECONNRESET: { outcome: 'network-error', retryable: true, message: () => 'connection reset by the server' },
  UND_ERR_SOCKET: { outcome: 'network-error', retryable: true, message: () => 'connection closed by the server mid-response' },
  EPIPE: { outcome: 'network-error', retryable: true, message: () => 'connection closed by the server' },
  EAI_AGAIN: { outcome: 'network-error', retryable: true, message: () => 'DNS lookup failed temporarily' },
  ENOTFOUND: { outcome: 'network-error', retryable: false, message: () => 'host not found (DNS)' },
  EHOSTUNREACH: { outcome: 'network-error', retryable: false, message: () => 'host unreachable' },
  ENETUNREACH: { outcome: 'network-error', retryable: false, message: () => 'network unreachable' },
  UND_ERR_HEADERS_OVERFLOW: { outcome: 'network-error', retryable: false, message: () => 'response headers too large' },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: { outcome: 'network-error', retryable: true, message: () => 'body shorter than its Content-Length' },
  UND_ERR_ABORTED: { outcome: 'network-error', retryable: true, message: () => 'request aborted' },
  ABORT_ERR: { outcome: 'network-error', retryable: true, message: () => 'request aborted' },
  // The connection the address guard refused (`address-guard.ts`): its message says why.
  LINKSCENT_ADDRESS_DENIED: { outcome: 'address-denied', retryable: false, message: (e) => e.message },
};

/**
 * Maps an error thrown while fetching to outcome, one-line message and reaction. Looks through
 * `cause` chains and AggregateErrors (Node's happy-eyeballs connect reports one per address),
 * because the code that matters is often one level down.
 */
export function classifyFetchFailure(err: unknown): FetchFailure {
  const found = findCoded(err);
  if (found) {
    const { error, code } = found;
    const rule = RULES[code];
    if (rule) return failure(rule.outcome, rule.message(error), rule.retryable, err, code);
    if (code.startsWith('HPE_')) return failure('network-error', 'malformed HTTP response', false, err, code);
    if (code.startsWith('Z_') || code === 'ERR_BROTLI_DECOMPRESSION_FAILED' || (error.errno !== undefined && error.errno < 0 && /zlib|brotli|decompress|header check|invalid/i.test(error.message))) {
      return failure('network-error', `body could not be decompressed: ${firstLine(error.message)}`, false, err, code);
    }
    if (/CERT|TLS|SSL/.test(code)) return failure('network-error', `TLS failed: ${code}`, false, err, code);
  }
  const named = err instanceof Error ? err : undefined;
  if (named?.name === 'TimeoutError') return failure('timeout', firstLine(named.message), true, err);
  if (named?.name === 'AbortError') return failure('network-error', 'request aborted', true, err);
  const message = named ? firstLine(named.message) || named.name : String(err);
  return failure('network-error', message, false, err, found?.code);
}

/**
 * Whether a finished fetch is worth trying again later: timeouts, resets and server trouble
 * (5xx, 408, 429) may pass; a 404, a binary file or a denied redirect will not.
 */
export function isRetryable(page: Pick<FetchedPage, 'outcome' | 'status'>): boolean {
  switch (page.outcome) {
    case 'timeout':
      return true;
    case 'http-error':
      return page.status >= 500 || page.status === 408 || page.status === 429;
    default:
      return false;
  }
}

/** The reaction a finished page calls for, `undefined` when it is fine to use. */
export function reactionForPage(page: Pick<FetchedPage, 'outcome' | 'status' | 'retryable'>): FetchReaction | undefined {
  if (page.outcome === 'ok') return undefined;
  return (page.retryable ?? isRetryable(page)) ? 'retry' : 'skip';
}

function failure(outcome: FetchFailure['outcome'], message: string, retryable: boolean, cause: unknown, code?: string): FetchFailure {
  const aborted = code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR' || (cause instanceof Error && cause.name === 'AbortError');
  const reaction: FetchReaction = aborted ? 'stop' : retryable ? 'retry' : 'skip';
  return code === undefined ? { outcome, message, retryable, reaction, cause } : { outcome, message, retryable, reaction, code, cause };
}

function findCoded(err: unknown, depth = 0): { error: CodedError; code: string } | undefined {
  if (!(err instanceof Error) || depth > 5) return undefined;
  const coded = err as CodedError;
  if (typeof coded.code === 'string' && coded.code in RULES) return { error: coded, code: coded.code };
  const nested = [
    ...(err instanceof AggregateError ? (err.errors as unknown[]) : []),
    (err as { cause?: unknown }).cause,
  ];
  for (const inner of nested) {
    const hit = findCoded(inner, depth + 1);
    if (hit && hit.code in RULES) return hit;
  }
  if (typeof coded.code === 'string') return { error: coded, code: coded.code };
  for (const inner of nested) {
    const hit = findCoded(inner, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}
