/**
 * Cutting a context to W characters (Han et al. 2010 §3.3's window) without leaving a broken
 * character or a word fragment at the cut.
 *
 * Han et al. worked on Chinese, where any cut falls between words as far as a tokenizer cares.
 * In space-separated scripts a cut inside "government" would leave "ernment", a token that
 * appears nowhere else; so when the cut splits such a word, the fragment is dropped (unless the
 * whole window is that one word). Lengths are UTF-16 code units; a cut never splits a surrogate
 * pair.
 */

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
/** Scripts written without spaces between words: a cut anywhere in them is a fair cut. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** True for a character of a space-separated word (Latin, Cyrillic, digits, …) at `index`. */
function inSpacedWord(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  let code = text.charCodeAt(index);
  // Step back from a low surrogate to its pair's start, so the whole code point is tested.
  if (code >= 0xdc00 && code <= 0xdfff && index > 0) code = text.codePointAt(index - 1) ?? code;
  else code = text.codePointAt(index) ?? code;
  return isSpacedWordCharacter(code);
}

/**
 * `WORD_CHARACTER` and not `UNSPACED_SCRIPT`, answered without the regular expressions for the
 * code points most cuts land on: ASCII, the main Han blocks and the punctuation around Chinese
 * text. Why: the first use of a `\p{…}` class in a renderer process loads ICU's property data,
 * 10–15 ms in Chromium 156, and it fell in the content script's first extraction, the one the
 * first highlight waits for (issue 14's trace; each new tab is a new process). The answers are
 * the expressions' own for every code point (test/shared/contexts/clip-text.test.ts checks all
 * of them).
 */
export function isSpacedWordCharacter(code: number): boolean {
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  // CJK Unified Ideographs and Extension A: Han or unassigned, never a spaced word.
  if ((code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf)) return false;
  // General Punctuation; 、。〃〄 and the CJK brackets 〈…】; fullwidth ！…／ and ：…＠: no letter, digit or mark.
  if ((code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x3004) || (code >= 0x3008 && code <= 0x3011)) return false;
  if ((code >= 0xff01 && code <= 0xff0f) || (code >= 0xff1a && code <= 0xff20)) return false;
  const character = String.fromCodePoint(code);
  return WORD_CHARACTER.test(character) && !UNSPACED_SCRIPT.test(character);
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The last `limit` characters of `text` (the ones nearest a link that follows it), trimmed. */
export function lastCharacters(text: string, limit: number): string {
  if (text.length <= limit) return text.trim();
  let start = text.length - limit;
  if (isLowSurrogate(text, start)) start++;
  let clean = start;
  if (inSpacedWord(text, start - 1)) while (clean < text.length && inSpacedWord(text, clean)) clean++;
  const clipped = text.slice(clean).trim();
  return clipped !== '' ? clipped : text.slice(start).trim();
}

/** The first `limit` characters of `text` (the ones nearest a link that precedes it), trimmed. */
export function firstCharacters(text: string, limit: number): string {
  if (text.length <= limit) return text.trim();
  let end = limit;
  if (isLowSurrogate(text, end)) end--;
  let clean = end;
  if (inSpacedWord(text, end)) while (clean > 0 && inSpacedWord(text, clean - 1)) clean--;
  const clipped = text.slice(0, clean).trim();
  return clipped !== '' ? clipped : text.slice(0, end).trim();
}
