/**
 * `s` as a flat string of its own, for strings kept for good (cache keys, tokens, feature names).
 *
 * In V8 a substring may be a "sliced string", a view that keeps the whole string it was cut from
 * alive: an anchor sliced from a page's HTML holds the page (in the service's soak, 3,974 pages,
 * 71 MB, stayed alive through the token cache's keys). A concatenation is a "rope" until something
 * reads it whole, and then holds both parts. Concatenating makes a flat copy of `s` and one more
 * character; slicing that copy keeps only the copy.
 *
 * A string shorter than `SHARED_MIN_LENGTH` is returned as it is: it is never a view. V8 makes a
 * slice or a rope only from 13 characters on (`SlicedString::kMinLength`,
 * `ConsString::kMinLength`) and copies anything shorter; SpiderMonkey copies substrings that fit
 * an inline string (up to 12 two-byte characters). Most tokens are that short, and the copy cost
 * two new strings per token of every text new to the tokenizer (issue 14's worker profile).
 */
export function ownString(s: string): string {
  return s.length < SHARED_MIN_LENGTH ? s : ` ${s}`.slice(1);
}

/** The shortest string that may share another's characters (a slice or a rope) in V8 and SpiderMonkey. */
export const SHARED_MIN_LENGTH = 13;
