import { describe, expect, it } from 'vitest';
import { containsLexiconTerm, parseLexicon } from '../../../shared/features/lexicon.ts';

describe('parseLexicon', () => {
  it('reads one term per line with comments, trimming, dedupe and no empties', () => {
    const text = '\uFEFF# finance terms\n股票\n  基金  \n\n股票\r\nＡ股\nA股 # same term once normalised\nc#\n外汇\t# forex\r\n   \n#only a comment';
    expect(parseLexicon(text)).toEqual(['股票', '基金', 'Ａ股', 'c#', '外汇']);
  });

  it('gives an empty lexicon for an empty file', () => {
    expect(parseLexicon('')).toEqual([]);
    expect(parseLexicon('\n# nothing\n')).toEqual([]);
  });
});

describe('containsLexiconTerm', () => {
  it('matches normalised terms as substrings of any of the texts', () => {
    expect(containsLexiconTerm(['Ａ股'], '今日a股收盘')).toBe(true);
    expect(containsLexiconTerm(['基金'], '股票', '货币基金')).toBe(true);
    expect(containsLexiconTerm(['基金'], '股票', '债券')).toBe(false);
  });

  it('never matches with an empty lexicon or only blank terms', () => {
    expect(containsLexiconTerm([], '股票')).toBe(false);
    expect(containsLexiconTerm(['', '  '], '股票')).toBe(false);
  });
});
