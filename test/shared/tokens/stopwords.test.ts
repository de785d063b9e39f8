import { describe, expect, it } from 'vitest';
import { STOPWORDS } from '../../../shared/tokens/stopwords.ts';
import { normalizeText } from '../../../shared/tokens/tokenizer.ts';

describe('STOPWORDS', () => {
  it('is a frozen list of a few hundred normalised, distinct function words', () => {
    expect(Object.isFrozen(STOPWORDS)).toBe(true);
    expect(STOPWORDS.length).toBeGreaterThan(200);
    expect(STOPWORDS.length).toBeLessThan(500);
    expect(new Set(STOPWORDS).size).toBe(STOPWORDS.length);
    for (const word of STOPWORDS) expect(normalizeText(word)).toBe(word);
  });

  it('holds the commonest Chinese and English function words', () => {
    for (const word of ['的', '了', '和', '是', '在', '我们', 'the', 'a', 'of', 'and']) expect(STOPWORDS).toContain(word);
  });

  it('leaves out words that collide with topic words once lower-cased (IT, US)', () => {
    expect(STOPWORDS).not.toContain('it');
    expect(STOPWORDS).not.toContain('us');
  });
});
