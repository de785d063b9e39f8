/**
 * The fetch layer's one options object (STYLE.md 7): every field documented with its default and
 * checked by `validateFetchOptions`, so a bad value from the command line or a config file fails
 * with one clear line instead of a confusing network error later.
 */

/**
 * Who we are, in the form robots.txt groups match on: the product token `LinkScent` comes
 * first (robots-parser keys groups on the text before the first `/`), then a version and a URL
 * where a site owner can read what the crawler does.
 */
export const DEFAULT_USER_AGENT = 'LinkScent/0.1 (+https://github.com/linkscent; focused crawler)';

export interface FetchOptions {
  /** Sent on every request and matched against robots.txt groups. Default `DEFAULT_USER_AGENT`. */
  userAgent: string;
  /**
   * TCP connect (and TLS handshake) deadline in ms. Default 10 000. Applied by the dispatcher:
   * the shared agent from `sharedAgent()` honours it; a caller-supplied dispatcher brings its own.
   * undici checks it on a coarse clock, so a timeout under a second fires after about a second.
   */
  connectTimeoutMs: number;
  /**
   * Deadline in ms for one response, from sending the request to the last body byte. Default
   * 30 000. It is a wall-clock deadline, not an idle timer, so a server that trickles one byte
   * a second cannot hold a worker forever. Each redirect hop gets its own deadline.
   */
  responseTimeoutMs: number;
  /**
   * Most body bytes read for one page, counted after decompression (and before it, on the
   * wire), default 5 MiB. A page that would exceed it is **skipped**, not truncated: outcome
   * `too-large`, no `html`. A page that big is almost always a dump or a trap, and a truncated
   * DOM would give segments the extension (which sees the whole page) never sees.
   */
  maxBytes: number;
  /** Redirects followed before giving up with `too-many-redirects`. Default 5. Loops are caught earlier. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_OPTIONS: FetchOptions = Object.freeze({
  userAgent: DEFAULT_USER_AGENT,
  connectTimeoutMs: 10_000,
  responseTimeoutMs: 30_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
});

/** Thrown by `validateFetchOptions`; the message names the option and what was wrong. */
export class FetchOptionsError extends Error {
  override name = 'FetchOptionsError';
}

const KNOWN = new Set(Object.keys(DEFAULT_FETCH_OPTIONS));

/**
 * Fills defaults and checks a partial options object from an edge (command line, config, HTTP
 * API). Unknown keys are rejected so a typo (`maxByte`) does not silently keep the default.
 */
export function validateFetchOptions(input: Partial<FetchOptions> = {}): FetchOptions {
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) throw new FetchOptionsError(`unknown fetch option '${key}' (known: ${[...KNOWN].join(', ')})`);
  }
  const options: FetchOptions = { ...DEFAULT_FETCH_OPTIONS, ...stripUndefined(input) };
  if (typeof options.userAgent !== 'string' || options.userAgent.trim() === '' || /[\r\n]/.test(options.userAgent)) {
    throw new FetchOptionsError('userAgent must be a non-empty single-line string');
  }
  positiveInteger('connectTimeoutMs', options.connectTimeoutMs);
  positiveInteger('responseTimeoutMs', options.responseTimeoutMs);
  positiveInteger('maxBytes', options.maxBytes);
  if (!Number.isInteger(options.maxRedirects) || options.maxRedirects < 0) {
    throw new FetchOptionsError(`maxRedirects must be a whole number ≥ 0, got ${String(options.maxRedirects)}`);
  }
  return options;
}

function positiveInteger(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new FetchOptionsError(`${name} must be a whole number > 0, got ${String(value)}`);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
