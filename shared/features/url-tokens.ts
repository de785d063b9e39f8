/**
 * URL features: words of a link's host and path (`u:`), and, from feature version 2, the words
 * of its query string and the hosts and directories it lies under (`d:`).
 *
 * Not in Han et al. 2010; ACHE and later focused crawlers use URL tokens, and on Chinese sites
 * the path often names the section in pinyin or English (`/finance/stock/`, `/gupiao/`), which
 * the anchor does not. Sites also name sections in the query (`?DbPAR=CALC`, `forum.php?fid=…&
 * type=stock`); ids and session keys are what a query mostly holds besides, so only its short
 * words are kept, never anything with several digits.
 *
 * Directories (`d:`) say what tokens cannot: where in the site's tree the link leads. A link to
 * `/text/scalc/guide/x.html` lies under `…/text/scalc`, as the on-topic `/text/scalc/01/…` do, and a
 * link to `/text/sbasic/shared/y.html` does not, whatever words their file names share. Kan &
 * Nguyen Thi 2005 ("Fast webpage classification using URL features") segment URLs the same way.
 */
import type { Tokenizer } from '../tokens/types.ts';

/** Tokens that name no topic: host boilerplate, file extensions, index pages, punycode prefix. */
export const URL_NOISE_TOKENS: ReadonlySet<string> = new Set([
  'www', 'com', 'cn', 'net', 'org', 'html', 'htm', 'shtml', 'xhtml', 'php', 'asp', 'aspx',
  'jsp', 'do', 'cgi', 'index', 'default', 'xn',
]);

/** scheme://authority/path?query — parsed by hand because `shared/` has no `URL` type (no DOM lib). */
const HIERARCHICAL_URL = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/iu;
const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;
const ALL_DIGITS = /^\p{N}+$/u;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/u;
/** A query piece this long, or with three digits or more, is an id, a hash or a session key. */
const QUERY_WORD_MAX = 24;
const SEVERAL_DIGITS = /\p{N}.*\p{N}.*\p{N}/u;
/** Directories kept per URL: deeper ones are rarely shared by two links and only cost memory. */
const MAX_DIRECTORY_DEPTH = 12;

export interface UrlTokenOptions {
  /** Also the words of the query string (feature version 2). Default false. */
  query?: boolean;
}

interface UrlParts {
  host: string;
  /** Path segments, decoded; the last is the file name ('' for a directory URL). */
  segments: string[];
  query: string;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape: keep the raw text rather than lose the segment
  }
}

function partsOf(url: string): UrlParts | null {
  const match = HIERARCHICAL_URL.exec(url);
  if (match === null) return null;
  const host = (match[1] ?? '').replace(/^.*@/u, '').replace(/:\d*$/u, '').toLowerCase();
  return { host, segments: (match[2] ?? '').split('/').slice(1).map(decode), query: match[3] ?? '' };
}

/**
 * The URL's host labels and path segments (and with `query`, its query's short words), decoded,
 * split on anything but letters and digits, each piece tokenized (so Han path segments are cut
 * by jieba and everything is normalised), then without `URL_NOISE_TOKENS` and pure numbers. In
 * URL order, repeats kept.
 */
export function urlTokens(url: string, tokenizer: Tokenizer, options: UrlTokenOptions = {}): string[] {
  const parts = partsOf(url);
  if (parts === null) return [];
  const pieces = parts.host.startsWith('[') || IPV4.test(parts.host) ? [] : parts.host.split('.'); // an address names nothing
  pieces.push(...parts.segments);
  if (options.query && parts.query !== '') {
    for (const piece of parts.query.split(/[&=;]/u).map((p) => decode(p.replace(/\+/gu, ' ')))) {
      if (piece.length <= QUERY_WORD_MAX && !SEVERAL_DIGITS.test(piece)) pieces.push(piece);
    }
  }
  const tokens: string[] = [];
  for (const part of pieces) {
    for (const piece of part.split(NON_ALPHANUMERIC)) {
      if (piece === '') continue;
      for (const token of tokenizer.tokenize(piece)) {
        if (!URL_NOISE_TOKENS.has(token) && !ALL_DIGITS.test(token)) tokens.push(token);
      }
    }
  }
  return tokens;
}

/**
 * What the URL lies under, widest first: its host's domains from the top (`cn`, `com.cn`,
 * `sina.com.cn`, `finance.sina.com.cn`; an IP address or IPv6 literal as one), then the host
 * with each directory of its path (`finance.sina.com.cn/stock`, `…/stock/usstock`). The file
 * name is not a directory; a URL ending in `/` is its own last directory. Lower-cased host,
 * path as written (paths are case-sensitive), at most `MAX_DIRECTORY_DEPTH` directories.
 */
export function urlDirectories(url: string): string[] {
  const parts = partsOf(url);
  if (parts === null || parts.host === '') return [];
  const { host } = parts;
  const out: string[] = [];
  if (host.startsWith('[') || IPV4.test(host)) out.push(host);
  else {
    const labels = host.split('.').filter((label) => label !== '');
    for (let i = labels.length - 1; i >= 0; i--) out.push(labels.slice(i).join('.'));
  }
  let prefix = host;
  for (const segment of parts.segments.slice(0, -1).slice(0, MAX_DIRECTORY_DEPTH)) {
    prefix += `/${segment}`;
    out.push(prefix);
  }
  return out;
}
