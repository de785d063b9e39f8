/**
 * URL tokens (`u:`): words of a link's host and path.
 *
 * Not in Han et al. 2010; ACHE and later focused crawlers use them, and on Chinese sites the path
 * often names the section in pinyin or English (`/finance/stock/`, `/gupiao/`), which the anchor
 * does not. The query string and fragment are left out: they are mostly ids and session noise.
 */
import type { Tokenizer } from '../tokens/types.ts';

/** Tokens that name no topic: host boilerplate, file extensions, index pages, punycode prefix. */
export const URL_NOISE_TOKENS: ReadonlySet<string> = new Set([
  'www', 'com', 'cn', 'net', 'org', 'html', 'htm', 'shtml', 'xhtml', 'php', 'asp', 'aspx',
  'jsp', 'do', 'cgi', 'index', 'default', 'xn',
]);

/** scheme://authority/path — parsed by hand because `shared/` has no `URL` type (no DOM lib). */
const HIERARCHICAL_URL = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)/iu;
const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;
const ALL_DIGITS = /^\p{N}+$/u;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape: keep the raw text rather than lose the segment
  }
}

/**
 * The URL's host labels and path segments, decoded, split on anything but letters and digits,
 * each piece tokenized (so Han path segments are cut by jieba and everything is normalised),
 * then without `URL_NOISE_TOKENS` and pure numbers. In URL order, repeats kept.
 */
export function urlTokens(url: string, tokenizer: Tokenizer): string[] {
  const match = HIERARCHICAL_URL.exec(url);
  if (match === null) return [];
  const authority = match[1] ?? '';
  const path = match[2] ?? '';
  const host = authority.replace(/^.*@/u, '').replace(/:\d*$/u, '');
  const parts = host.startsWith('[') ? [] : host.split('.'); // an IPv6 literal names nothing
  parts.push(...path.split('/').map(decode));
  const tokens: string[] = [];
  for (const part of parts) {
    for (const piece of part.split(NON_ALPHANUMERIC)) {
      if (piece === '') continue;
      for (const token of tokenizer.tokenize(piece)) {
        if (!URL_NOISE_TOKENS.has(token) && !ALL_DIGITS.test(token)) tokens.push(token);
      }
    }
  }
  return tokens;
}
