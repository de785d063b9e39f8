/**
 * `normalizeText` gives `s.normalize('NFKC').toLowerCase()` whether or not it skips the calls:
 * the rule for stable code units is checked unit by unit over the whole BMP, against every
 * canonical and compatibility decomposition, and on random strings mixing stable units with the
 * ones that compose, reorder or change case.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/random/seeded-random.ts';
import { isStableUnit, normalizeText } from '../../../shared/tokens/normal-form.ts';

const reference = (s: string) => s.normalize('NFKC').toLowerCase();

describe('normalizeText', () => {
  it('is NFKC then lower case, full-width and compatibility forms included', () => {
    expect(normalizeText('ＡＢＣ１２３')).toBe('abc123');
    expect(normalizeText('Ⅻ ① ﬁ')).toBe('xii 1 fi');
    expect(normalizeText('Debian参考手册')).toBe('debian参考手册');
    expect(normalizeText('ΟΔΟΣ')).toBe(reference('ΟΔΟΣ')); // final sigma: a context rule
    expect(normalizeText('e\u0301')).toBe('\u00e9');
    expect(normalizeText('\u1100\u1161')).toBe('\uac00');
  });

  it('hands a text already in normal form back as it is', () => {
    const text = 'debian 软件包管理 v2.1。';
    expect(normalizeText(text)).toBe(text);
  });

  it('calls a BMP code unit stable only where both calls leave it, alone and after or before any stable unit', () => {
    let stable = 0;
    for (let unit = 0; unit < 0x10000; unit++) {
      if (!isStableUnit(unit)) continue;
      stable++;
      const char = String.fromCharCode(unit);
      for (const text of [char, `a${char}`, `${char}a`, `我${char}`, `${char}\u00e9`]) {
        if (reference(text) !== text) expect(reference(text), `U+${unit.toString(16)} in ${JSON.stringify(text)}`).toBe(text);
      }
    }
    expect(stable).toBeGreaterThan(40_000); // Han, Latin, punctuation… the rule is not vacuous
    for (const unit of [0x41, 0x3a3, 0x301, 0x1161, 0x11a8, 0xff0c, 0x2026, 0xf900, 0xd800]) expect(isStableUnit(unit), `U+${unit.toString(16)}`).toBe(false);
  });

  // Composition joins only the halves of a canonical decomposition (a compatibility one is never
  // composed back), and NFD spells each out.
  it('has no stable unit that a canonical decomposition puts after its first character (so none composes with what precedes it)', () => {
    for (let codePoint = 0; codePoint < 0x110000; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const char = String.fromCodePoint(codePoint);
      for (const part of [...char.normalize('NFD')].slice(1)) {
        if (part.length === 1 && isStableUnit(part.charCodeAt(0))) expect.fail(`U+${part.charCodeAt(0).toString(16)} follows in the NFD of U+${codePoint.toString(16)}`);
      }
    }
  });

  it('agrees with the reference on random strings of stable and unstable units', () => {
    const random = seededRandom(45);
    const alphabet = ['a', 'Z', '9', 'é', 'e', '\u0301', '\u0323', '我', '〇', '，', '。', 'Σ', 'σ', 'İ', '\u1100', '\u1161', '\u11a8', '가', 'ﬁ', 'Ａ', ' ', '-', '\ud840', '\udc00', 'ж', 'カ', '\u3099'];
    for (let i = 0; i < 50_000; i++) {
      let text = '';
      const length = Math.floor(random() * 10);
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(random() * alphabet.length)];
      const normal = normalizeText(text);
      if (normal !== reference(text)) expect(normal, JSON.stringify(text)).toBe(reference(text));
    }
  });
});
