import { describe, expect, it } from 'vitest';
import { expandTerms, KNOWLEDGE_BASE_LIMITS, knowledgeTerms, parseKnowledgeBase } from '../../../shared/features/knowledge-base.ts';

describe('parseKnowledgeBase', () => {
  it('reads term: related lines, full-width separators, comments and bare terms', () => {
    const text = '\uFEFF# 军事\n防空导弹: 面空导弹, 地空导弹 ,军事\n股票：证券，A股、沪深股市  # stocks\n\n基金\nc#: C sharp\n';
    expect(parseKnowledgeBase(text, 'kb.txt')).toEqual([
      { term: '防空导弹', related: ['面空导弹', '地空导弹', '军事'] },
      { term: '股票', related: ['证券', 'A股', '沪深股市'] },
      { term: '基金', related: [] },
      { term: 'c#', related: ['C sharp'] },
    ]);
  });

  it('names the file and line of the first problem', () => {
    expect(() => parseKnowledgeBase('a: b\n: c\n', 'kb.txt')).toThrow('kb.txt:2: no term before the colon');
    expect(() => parseKnowledgeBase('a, b, c\n', 'kb.txt')).toThrow('kb.txt:1: a list without a term; write "term: related, related"');
    expect(() => parseKnowledgeBase('a: b: c\n', 'kb.txt')).toThrow('kb.txt:1: more than one colon');
    expect(() => parseKnowledgeBase(`a: ${'x'.repeat(65)}\n`, 'kb.txt')).toThrow(/^kb\.txt:1: the term "x{20}…" is 65 characters, at most 64$/);
    const many = Array.from({ length: KNOWLEDGE_BASE_LIMITS.related + 1 }, (_, i) => `r${i}`).join(',');
    expect(() => parseKnowledgeBase(`a: ${many}`, 'kb.txt')).toThrow('kb.txt:1: 101 related terms, at most 100');
    expect(() => parseKnowledgeBase('# only comments\n', 'kb.txt')).toThrow('kb.txt: no terms');
    expect(() => parseKnowledgeBase('x'.repeat(KNOWLEDGE_BASE_LIMITS.chars + 1), 'kb.txt')).toThrow(/^kb\.txt: 1048577 characters/);
    const lines = Array.from({ length: KNOWLEDGE_BASE_LIMITS.entries + 1 }, (_, i) => `t${i}`).join('\n');
    expect(() => parseKnowledgeBase(lines, 'kb.txt')).toThrow('kb.txt:10001: more than 10000 terms');
  });
});

describe('expandTerms (seed 004 §4.3.1)', () => {
  const base = parseKnowledgeBase('防空导弹: 面空导弹, 地空导弹, 军事\n股票: 证券, 军事\n基金\n', 'kb');

  it('adds the related terms of every term the texts mention, once each, not expanding them again', () => {
    expect(expandTerms(base, '新型防空导弹试射', '股票')).toEqual(['面空导弹', '地空导弹', '军事', '证券']);
    expect(expandTerms(base, '面空导弹')).toEqual([]);
    expect(expandTerms(base, 'ＦＵＬＬ股票')).toEqual(['证券', '军事']);
  });

  it('lists every term for the feature set', () => {
    expect(knowledgeTerms(base)).toEqual(['防空导弹', '面空导弹', '地空导弹', '军事', '股票', '证券', '基金']);
  });
});
