/**
 * Crawler-trap caps: the cheap URL-shape checks that bound an endless URL space (calendars,
 * session ids, `a/b/a/b/…` relative-link loops) before it is ever enqueued. The depth limit and
 * the per-host page cap in the crawl options bound what these shapes miss.
 */
import { parseUrl, type WhatwgUrl } from '../../shared/urls/normalize-url.ts';

export interface TrapCaps {
  /** Most times one path segment may occur in a URL's path. Default 3 (`/a/x/a/y/a/` is fine, a fourth `a` is not). */
  maxSegmentRepeats: number;
  /** Longest query string (after `?`) in characters. Default 256. */
  maxQueryLength: number;
  /** Longest URL in characters. Default 2 048. */
  maxUrlLength: number;
  /** Most path segments. Default 32. */
  maxPathSegments: number;
}

export const DEFAULT_TRAP_CAPS: TrapCaps = Object.freeze({
  maxSegmentRepeats: 3,
  maxQueryLength: 256,
  maxUrlLength: 2048,
  maxPathSegments: 32,
});

/** Why a URL looks like a trap, or null when it passes every cap. */
export function trapReason(url: string, caps: TrapCaps = DEFAULT_TRAP_CAPS): string | null {
  // A URL past the length cap is not parsed: `trapReasonOf` names its length first.
  return trapReasonOf(url, url.length > caps.maxUrlLength ? undefined : parseUrl(url), caps);
}

/**
 * `trapReason` for a URL the caller has parsed already (`parseUrl(url)`, undefined when it does
 * not parse): a crawl reads the host of the same parse (`follow-links.ts`).
 */
export function trapReasonOf(url: string, parsed: WhatwgUrl | undefined, caps: TrapCaps = DEFAULT_TRAP_CAPS): string | null {
  if (url.length > caps.maxUrlLength) return `URL longer than ${caps.maxUrlLength} characters`;
  if (parsed === undefined) return 'URL does not parse';
  const query = parsed.search.startsWith('?') ? parsed.search.slice(1) : parsed.search;
  if (query.length > caps.maxQueryLength) return `query longer than ${caps.maxQueryLength} characters`;
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  if (segments.length > caps.maxPathSegments) return `more than ${caps.maxPathSegments} path segments`;
  // No segment can repeat more often than there are segments.
  if (segments.length <= caps.maxSegmentRepeats) return null;
  const seen = new Map<string, number>();
  for (const segment of segments) {
    const n = (seen.get(segment) ?? 0) + 1;
    if (n > caps.maxSegmentRepeats) return `path segment "${segment}" repeated more than ${caps.maxSegmentRepeats} times`;
    seen.set(segment, n);
  }
  return null;
}
