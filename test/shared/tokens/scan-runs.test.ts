/**
 * `scanRuns` finds exactly `RUN_PATTERN`'s matches: on every BMP code point next to the
 * characters the pattern treats specially, on hand-picked edge cases, and on random strings
 * drawn from an alphabet of the pattern's character classes.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/random/seeded-random.ts';
import { RUN_PATTERN, scanRuns } from '../../../shared/tokens/scan-runs.ts';

/** Matches as the regular expression gives them: ['h', run] or ['w', word]. */
function byPattern(text: string): string[][] {
  const out: string[][] = [];
  for (const match of text.matchAll(RUN_PATTERN)) out.push(match[1] !== undefined ? ['h', match[1]] : ['w', match[2]!]);
  return out;
}

function byScan(text: string): string[][] {
  const out: string[][] = [];
  scanRuns(text, { han: (run) => out.push(['h', run]), word: (word) => out.push(['w', word]) });
  return out;
}

describe('scanRuns', () => {
  it('finds the pattern’s Han runs and words on hand-picked cases', () => {
    const cases = [
      '', 'abc', '我们在北京大学学习', 'debian参考手册 v2.1', "c++ c# a+b e-mail don't node.js. snake_case a/b",
      'c++x c+x c+++ c#+ x#y a.-b a..b a.b.c 1.2.3 -a- ’a’b', 'москва カタカナ 한국어 ελλάδα', '\u0301a\u0301 \u0301',
      '𠀀𠀁 a𠀀b 𝒜𝒷 \ud800 \udc00a', '〇一 ㊀ 〡〢', 'e\u0301+ +a #', 'x+\u0301',
    ];
    for (const text of cases) expect(byScan(text), text).toEqual(byPattern(text));
  });

  it('classes every BMP code point as the pattern does, alone and between word characters', () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      const char = String.fromCharCode(unit);
      for (const text of [char, `a${char}b`, `a+${char}`, `我${char}们`]) {
        const scanned = byScan(text);
        const matched = byPattern(text);
        if (JSON.stringify(scanned) !== JSON.stringify(matched)) expect(scanned, `U+${unit.toString(16)} in ${JSON.stringify(text)}`).toEqual(matched);
      }
    }
  });

  it('agrees with the pattern past the bound on astral classes kept, on a text of 9,003 distinct astral code points', () => {
    // Han (CJK Extension B), letters (mathematical alphanumerics), marks (Kharoshthi), symbols (emoji).
    const ranges = [0x20000, 0x1d400, 0x10a01, 0x1f300];
    let text = '';
    for (let i = 0; i < 3000; i++) for (const start of ranges) text += String.fromCodePoint(start + (i % (start === 0x10a01 ? 3 : 3000))) + (i % 7 === 0 ? ' ' : '');
    expect(byScan(text)).toEqual(byPattern(text));
    expect(byScan(text)).toEqual(byPattern(text)); // again, the kept classes and the ones asked anew
  });

  it('agrees with the pattern on random strings of its character classes', () => {
    const random = seededRandom(14);
    const alphabet = ['a', 'Z', '9', 'é', '\u0301', '我', '们', '𠀀', '𝒜', '.', '_', "'", '’', '-', '+', '#', ' ', '，', '/', '\ud800', 'ж', 'カ', '〇'];
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const length = Math.floor(random() * 12);
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
      const scanned = byScan(text);
      const matched = byPattern(text);
      if (JSON.stringify(scanned) !== JSON.stringify(matched)) expect(scanned, JSON.stringify(text)).toEqual(matched);
    }
  });
});
