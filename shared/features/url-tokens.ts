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
import { LruCache } from '../tokens/lru-cache.ts';
import { ownString } from '../tokens/own-string.ts';
import { readTokens, type Tokenizer } from '../tokens/types.ts';

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

/**
 * What a URL's features owe to its host and directories alone, which every link into the same
 * directory shares: a page's links mostly point into a few directories of a few hosts, so this
 * part is worked out once per directory (`headOf`) and only the file name and query per link.
 */
interface UrlHead {
  /** The `u:` tokens of the host labels and the directory segments, in URL order. */
  tokens: readonly string[];
  /** `urlDirectories` of any URL in this directory. */
  directories: readonly string[];
}

/** Directories whose heads are kept per tokenizer (least recently used dropped first). */
const HEAD_CACHE_SIZE = 2048;
const headCaches = new WeakMap<Tokenizer, Heads>();

function decode(segment: string): string {
  if (!segment.includes('%')) return segment; // nothing to decode (and nothing malformed)
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape: keep the raw text rather than lose the segment
  }
}

/** The kept tokens of one URL part into `out` (`emitPartTokens`). */
function addPartTokens(part: string, tokenizer: Tokenizer, out: string[]): void {
  emitPartTokens(part, tokenizer, (_prefix, token) => out.push(token));
}

/** The head of the URL whose authority is `authority` and whose path up to its last `/` is `directory`. */
function computeHead(authority: string, directory: string, tokenizer: Tokenizer): UrlHead {
  // Its own string: the head outlives the URL, and the host may be a slice of it (`ownString`).
  const host = ownString(authority.replace(/^.*@/u, '').replace(/:\d*$/u, '').toLowerCase());
  const address = host.startsWith('[') || IPV4.test(host);
  // Path segments of the directory: the path split on '/', the first (empty) and the file name dropped.
  const segments = directory === '' ? [] : directory.split('/').slice(1, -1).map(decode);
  const tokens: string[] = [];
  if (!address) for (const label of host.split('.')) addPartTokens(label, tokenizer, tokens); // an address names nothing
  for (const segment of segments) addPartTokens(segment, tokenizer, tokens);
  const directories: string[] = [];
  if (host !== '') {
    if (address) directories.push(host);
    else {
      const labels = host.split('.').filter((label) => label !== '');
      for (let i = labels.length - 1; i >= 0; i--) directories.push(labels.slice(i).join('.'));
    }
    let prefix = host;
    for (const segment of segments.slice(0, MAX_DIRECTORY_DEPTH)) {
      prefix += `/${segment}`;
      directories.push(prefix);
    }
  }
  return { tokens, directories };
}

/**
 * A tokenizer's heads: the cache, and the head last looked up with what it was for. A page's
 * links come in runs into one directory (a list of chapters, a menu), and a run costs no key to
 * build and no lookup in the cache. A head depends on nothing but its tokenizer, authority and
 * directory, so the last one holds whether or not the cache still has it.
 */
interface Heads {
  cache: LruCache<string, UrlHead>;
  authority: string;
  directory: string;
  head: UrlHead | undefined;
}

function headOf(authority: string, directory: string, tokenizer: Tokenizer): UrlHead {
  let heads = headCaches.get(tokenizer);
  if (heads === undefined) {
    heads = { cache: new LruCache(HEAD_CACHE_SIZE), authority: '', directory: '', head: undefined };
    headCaches.set(tokenizer, heads);
  } else if (heads.head !== undefined && heads.authority === authority && heads.directory === directory) {
    return heads.head;
  }
  const key = `${authority}\u0000${directory}`;
  let head = heads.cache.get(key);
  if (head === undefined) {
    head = computeHead(authority, directory, tokenizer);
    heads.cache.set(ownString(key), head);
  }
  // Copies: slices of the URL would keep the whole URL alive.
  heads.authority = ownString(authority);
  heads.directory = ownString(directory);
  heads.head = head;
  return head;
}

/** Receives a URL's features one at a time: `u:` tokens first, then `d:` directories (`emitUrlFeatures`). */
export type UrlFeatureEmit = (prefix: 'u:' | 'd:', value: string) => void;

/**
 * The URL's features in order, as `urlTokens` and `urlDirectories` give them: its tokens (with
 * `query`, the query's short words last) under `u:`, then, with `directories`, what it lies
 * under as `d:`. Parses the URL once for both.
 */
export function emitUrlFeatures(url: string, tokenizer: Tokenizer, options: UrlTokenOptions & { directories?: boolean }, emit: UrlFeatureEmit): void {
  const match = HIERARCHICAL_URL.exec(url);
  if (match === null) return;
  const authority = match[1] ?? '';
  const path = match[2] ?? '';
  const slash = path.lastIndexOf('/');
  const head = headOf(authority, path.slice(0, slash + 1), tokenizer);
  for (const token of head.tokens) emit('u:', token);
  // The file name: the path's last segment ('' for a directory URL, none for an empty path).
  if (slash >= 0) emitPartTokens(decode(path.slice(slash + 1)), tokenizer, emit);
  const query = match[3] ?? '';
  if (options.query && query !== '') {
    for (const raw of query.split(/[&=;]/u)) {
      const piece = decode(raw.replace(/\+/gu, ' '));
      if (piece.length <= QUERY_WORD_MAX && !SEVERAL_DIGITS.test(piece)) emitPartTokens(piece, tokenizer, emit);
    }
  }
  if (options.directories) for (const directory of head.directories) emit('d:', directory);
}

/** One URL part's tokens: split on anything but letters and digits, each piece tokenized, noise and numbers dropped. */
function emitPartTokens(part: string, tokenizer: Tokenizer, emit: UrlFeatureEmit): void {
  if (!isAscii(part)) {
    for (const piece of part.split(NON_ALPHANUMERIC)) if (piece !== '') emitPieceTokens(piece, tokenizer, emit);
    return;
  }
  // The same split without the regular expression: in ASCII, `\p{L}` and `\p{N}` are [A-Za-z0-9].
  // Most parts are a file name (`7.html`) and this ran for every link (issue 14's worker profile).
  let start = 0;
  let digitsOnly = true;
  for (let i = 0; i <= part.length; i++) {
    const unit = i < part.length ? part.charCodeAt(i) : 0;
    const digit = unit >= 0x30 && unit <= 0x39;
    if (digit || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a)) {
      digitsOnly &&= digit;
      continue;
    }
    // A piece of ASCII digits alone is a number: its one token is itself, dropped as every number is.
    if (i > start && !digitsOnly) emitPieceTokens(part.slice(start, i), tokenizer, emit);
    start = i + 1;
    digitsOnly = true;
  }
}

/** One piece's tokens (a part split on anything but letters and digits), noise and numbers dropped. */
function emitPieceTokens(piece: string, tokenizer: Tokenizer, emit: UrlFeatureEmit): void {
  for (const token of readTokens(tokenizer, piece)) {
    if (!URL_NOISE_TOKENS.has(token) && !ALL_DIGITS.test(token)) emit('u:', token);
  }
}

/** Whether every code unit of `s` is ASCII. */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * The URL's host labels and path segments (and with `query`, its query's short words), decoded,
 * split on anything but letters and digits, each piece tokenized (so Han path segments are cut
 * by jieba and everything is normalised), then without `URL_NOISE_TOKENS` and pure numbers. In
 * URL order, repeats kept.
 */
export function urlTokens(url: string, tokenizer: Tokenizer, options: UrlTokenOptions = {}): string[] {
  const tokens: string[] = [];
  emitUrlFeatures(url, tokenizer, { query: options.query === true }, (_prefix, token) => tokens.push(token));
  return tokens;
}

/** A tokenizer that never runs: `urlDirectories` needs no tokens, only the head's directories. */
const NO_TOKENS: Tokenizer = { tokenize: () => [] };

/**
 * What the URL lies under, widest first: its host's domains from the top (`cn`, `com.cn`,
 * `sina.com.cn`, `finance.sina.com.cn`; an IP address or IPv6 literal as one), then the host
 * with each directory of its path (`finance.sina.com.cn/stock`, `…/stock/usstock`). The file
 * name is not a directory; a URL ending in `/` is its own last directory. Lower-cased host,
 * path as written (paths are case-sensitive), at most `MAX_DIRECTORY_DEPTH` directories.
 */
export function urlDirectories(url: string): string[] {
  const match = HIERARCHICAL_URL.exec(url);
  if (match === null) return [];
  const path = match[2] ?? '';
  return [...headOf(match[1] ?? '', path.slice(0, path.lastIndexOf('/') + 1), NO_TOKENS).directories];
}
