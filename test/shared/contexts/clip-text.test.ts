import { describe, expect, it } from 'vitest';
import { firstCharacters, isSpacedWordCharacter, lastCharacters } from '../../../shared/contexts/clip-text.ts';

describe('lastCharacters / firstCharacters', () => {
  it('return short text whole, trimmed', () => {
    expect(lastCharacters(' 短文本 ', 10)).toBe('短文本');
    expect(firstCharacters(' 短文本 ', 10)).toBe('短文本');
  });

  it('cut Chinese anywhere', () => {
    expect(lastCharacters('一二三四五六', 4)).toBe('三四五六');
    expect(firstCharacters('一二三四五六', 4)).toBe('一二三四');
  });

  it('drop a Latin word fragment at the cut, keep a whole word', () => {
    expect(lastCharacters('alpha beta gamma', 8)).toBe('gamma');
    expect(lastCharacters('alpha beta gamma', 10)).toBe('beta gamma');
    expect(firstCharacters('alpha beta gamma', 8)).toBe('alpha');
    expect(firstCharacters('alpha beta gamma', 10)).toBe('alpha beta');
  });

  it('fall back to the raw cut when the window is one word', () => {
    expect(lastCharacters('supercalifragilistic', 5)).toBe('istic');
    expect(firstCharacters('supercalifragilistic', 5)).toBe('super');
  });

  it('never split a surrogate pair', () => {
    expect(lastCharacters('前😀后', 3)).toBe('😀后');
    expect(lastCharacters('😀😀', 3)).toBe('😀');
    expect(firstCharacters('前😀后', 2)).toBe('前');
    expect(firstCharacters('前😀后', 3)).toBe('前😀');
  });

  it('cut mixed Chinese and Latin text at a Latin word boundary', () => {
    expect(lastCharacters('基金QDII产品', 5)).toBe('产品');
    expect(firstCharacters('产品QDII基金', 4)).toBe('产品');
  });

  it('answer without the regular expressions exactly as they would, for every code point', () => {
    // The definition: a letter, digit or mark, not of a script written without spaces.
    const word = /[\p{L}\p{N}\p{M}]/u;
    const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
    const wrong: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      const character = String.fromCodePoint(code);
      const expected = word.test(character) && !unspaced.test(character);
      if (isSpacedWordCharacter(code) !== expected) wrong.push(code.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});
