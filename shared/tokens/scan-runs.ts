/**
 * The tokenizer's split of normalised text into Han runs and words (`tokenizer.ts`, header rules
 * 2–3), as a scan over the text's code points instead of a regular expression.
 *
 * The rule is the regular expression `RUN_PATTERN` below, and it stays the definition: the scan
 * finds exactly its matches, in order (test/shared/tokens/scan-runs.test.ts compares the two on
 * every BMP code point in four surroundings and on random strings of the pattern's classes). Each code point's class is read from the very
 * properties the pattern names (`\p{Script=Han}`, `[\p{L}\p{M}\p{N}]`), asked of the engine's
 * regular expressions once per code point and kept in a table.
 *
 * Why (issue 14's worker profile): on texts new to the token cache, `RUN.exec` and the match
 * arrays and substrings it builds were a tenth of the Worker's scoring time; the scan reads a
 * table per character and builds only the strings it hands out.
 */

/**
 * Group 1: a Han run. Group 2: a word — letters, marks and digits of any script but Han; two such
 * runs joined by one `.`, `_`, `-`, `'` or `’` stay one word; one or two trailing `+`/`#` not
 * followed by a word character are kept.
 */
// The `v` flag's set difference (ES2024; Chrome 112, Firefox 116, Node 20).
const WORD_CHAR = String.raw`[[\p{L}\p{M}\p{N}]--\p{Script=Han}]`;
export const RUN_PATTERN = new RegExp(
  String.raw`(\p{Script=Han}+)|(${WORD_CHAR}+(?:[._'’\-]${WORD_CHAR}+)*(?:[+#]{1,2}(?!${WORD_CHAR}))?)`,
  'gv',
);

const UNKNOWN = 0;
const OTHER = 1;
const HAN = 2;
/** A word character that is a letter or a digit (`[\p{L}\p{N}]`, not Han). */
const LETTER = 3;
/** A word character that is a mark only (`\p{M}`, not Han): part of a word, but no word by itself. */
const MARK = 4;

const IS_HAN = new RegExp(String.raw`^\p{Script=Han}$`, 'v');
const IS_WORD = new RegExp(`^${WORD_CHAR}$`, 'v');
const IS_LETTER_OR_DIGIT = new RegExp(String.raw`^[\p{L}\p{N}]$`, 'v');

function classify(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  if (IS_HAN.test(char)) return HAN;
  if (!IS_WORD.test(char)) return OTHER;
  return IS_LETTER_OR_DIGIT.test(char) ? LETTER : MARK;
}

/** Classes of the BMP's code points, filled as they are met (0: not asked yet). */
const bmpClasses = new Uint8Array(0x10000);
/**
 * Astral code points' classes, as met. Bounded: a page is a stranger's, and there are a million
 * astral code points; past the bound a class is asked of the regular expressions each time.
 */
const astralClasses = new Map<number, number>();
const MAX_ASTRAL_CLASSES = 4096;

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    let cls = bmpClasses[codePoint]!;
    if (cls === UNKNOWN) cls = bmpClasses[codePoint] = classify(codePoint);
    return cls;
  }
  let cls = astralClasses.get(codePoint);
  if (cls === undefined) {
    cls = classify(codePoint);
    if (astralClasses.size < MAX_ASTRAL_CLASSES) astralClasses.set(codePoint, cls);
  }
  return cls;
}

/** `.` `_` `'` `’` `-`: joins two word runs into one word. */
function isJoiner(unit: number): boolean {
  return unit === 0x2e || unit === 0x5f || unit === 0x27 || unit === 0x2019 || unit === 0x2d;
}

/** `+` `#`: a word's suffix (`c++`, `c#`). */
function isSuffix(unit: number): boolean {
  return unit === 0x2b || unit === 0x23;
}

/** Whether the code point at `i` is a word character (false past the end). */
function isWordAt(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const cls = classOf(text.codePointAt(i)!);
  return cls === LETTER || cls === MARK;
}

/** Set by `wordEnd`: whether the run it scanned held a letter or digit. */
let sawLetter = false;

/** The end of the longest run of word characters from `i` (`i` itself when there is none). */
function wordEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const codePoint = text.codePointAt(i)!;
    const cls = classOf(codePoint);
    if (cls === LETTER) sawLetter = true;
    else if (cls !== MARK) break;
    i += codePoint > 0xffff ? 2 : 1;
  }
  return i;
}

/** Receives `RUN_PATTERN`'s matches in order: a Han run, or a word and whether it holds a letter or digit. */
export interface RunSink {
  han(run: string): void;
  word(word: string, hasLetterOrDigit: boolean): void;
}

/** Hands `text`'s matches of `RUN_PATTERN` to `sink`, in order. */
export function scanRuns(text: string, sink: RunSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const codePoint = text.codePointAt(i)!;
    const cls = classOf(codePoint);
    if (cls === OTHER) {
      i += codePoint > 0xffff ? 2 : 1;
    } else if (cls === HAN) {
      let end = i + (codePoint > 0xffff ? 2 : 1);
      while (end < n) {
        const next = text.codePointAt(end)!;
        if (classOf(next) !== HAN) break;
        end += next > 0xffff ? 2 : 1;
      }
      sink.han(text.slice(i, end));
      i = end;
    } else {
      sawLetter = false;
      let end = wordEnd(text, i);
      // `(?:[._'’\-]WORD+)*`, greedy: a joiner counts only with a word character after it.
      while (end < n && isJoiner(text.charCodeAt(end))) {
        const after = wordEnd(text, end + 1);
        if (after === end + 1) break;
        end = after;
      }
      // `(?:[+#]{1,2}(?!WORD))?`: two when no word character follows them, else one when none
      // follows it (the second `+`/`#` is none), else neither.
      if (end < n && isSuffix(text.charCodeAt(end))) {
        if (end + 1 < n && isSuffix(text.charCodeAt(end + 1)) && !isWordAt(text, end + 2)) end += 2;
        else if (!isWordAt(text, end + 1)) end += 1;
      }
      sink.word(text.slice(i, end), sawLetter);
      i = end;
    }
  }
}
