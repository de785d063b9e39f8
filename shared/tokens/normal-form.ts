/**
 * `normalizeText` (NFKC, then lower case) without normalizing, where a look at the text's code
 * units shows it would change nothing: most texts are in normal form already, and a text that is
 * needs neither ICU call nor the two strings they build.
 *
 * Why (issue 14's worker profile): on texts new to the tokenizer, `normalize('NFKC')` and
 * `toLowerCase()` were about a fifth of tokenizing in Node (0.18 µs a text of the bench's 23
 * characters) and more in Chromium's Worker, and 80 % of the bench page's texts come out of them
 * unchanged.
 *
 * A code unit is *stable* when it is no surrogate, no mark (`\p{M}`), not in the Hangul Jamo
 * block (U+1100–U+11FF), and both NFKC and lower casing leave it as it is alone. A string of
 * stable units is in NFKC: such a unit is never NFKC_QC=No (its NFKC would differ), never
 * NFKC_QC=Maybe (those are marks and the Jamo vowels and trailing consonants), and has canonical
 * combining class 0 (every unit of another class is a mark), so the quick check of UAX #15 §9
 * says yes. Lower casing maps it unit by unit: the one rule with a context, Final_Sigma, is about
 * `Σ`, which lower casing changes and so is not stable. The test checks the rule against the two
 * calls on every BMP code unit, and that no stable unit is the second half of a decomposition.
 *
 * `A`–`Z` are stable under NFKC and only lower casing changes them: a text whose only other
 * units are stable is lower-cased without the NFKC pass.
 */

const UNKNOWN = 0;
const STABLE = 1;
/** `A`–`Z`: NFKC leaves it, lower casing does not. */
const UPPER_ASCII = 2;
const UNSTABLE = 3;

const IS_MARK = /^\p{M}$/u;

function classify(unit: number): number {
  if (unit < 0x80) return unit >= 0x41 && unit <= 0x5a ? UPPER_ASCII : STABLE;
  if ((unit >= 0xd800 && unit <= 0xdfff) || (unit >= 0x1100 && unit <= 0x11ff)) return UNSTABLE;
  const char = String.fromCharCode(unit);
  if (IS_MARK.test(char)) return UNSTABLE;
  return char.normalize('NFKC') === char && char.toLowerCase() === char ? STABLE : UNSTABLE;
}

/** Every code unit's class, filled as they are met (0: not asked yet). */
const classes = new Uint8Array(0x10000);

/** Whether the code unit is stable (see the file header); for tests. */
export function isStableUnit(unit: number): boolean {
  return classOf(unit) === STABLE;
}

function classOf(unit: number): number {
  let cls = classes[unit]!;
  if (cls === UNKNOWN) cls = classes[unit] = classify(unit);
  return cls;
}

/** NFKC, then lower case: `s.normalize('NFKC').toLowerCase()`, the same string, sparing the calls where they change nothing. */
export function normalizeText(s: string): string {
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const cls = classOf(s.charCodeAt(i));
    if (cls === STABLE) continue;
    if (cls === UNSTABLE) return s.normalize('NFKC').toLowerCase();
    upper = true;
  }
  return upper ? s.toLowerCase() : s;
}
