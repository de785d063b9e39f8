import { describe, expect, it } from 'vitest';
import { coOccurrence, createRwRelevance } from '../../../../companion/crawl/strategies/rw-relevance.ts';
import { parseSynonymList, SynonymListError } from '../../../../companion/crawl/strategies/synonym-list.ts';
import { loadNodeTokenizer } from '../../../../companion/platform/jieba-node.ts';

/** Words are what white space separates: the formulas, apart from segmentation. */
const spaces = { tokenize: (text: string) => text.toLowerCase().split(/[\s。]+/).filter((w) => w !== '') };

describe('parseSynonymList', () => {
  it('reads groups, near-synonym weights, comments and Chinese separators', () => {
    const groups = parseSynonymList('# finance\n股票 股市, stock\n\n0.6: 基金、理财\n', 'syn.txt');
    expect(groups).toEqual([
      { similarity: 1, words: ['股票', '股市', 'stock'], line: 2 },
      { similarity: 0.6, words: ['基金', '理财'], line: 4 },
    ]);
  });

  it('names the file and line of a bad group in one line', () => {
    expect(() => parseSynonymList('a b\n股票\n', 'syn.txt')).toThrow(new SynonymListError('syn.txt:2: a group needs at least two words'));
    expect(() => parseSynonymList('1.5: a b\n', 'syn.txt')).toThrow('syn.txt:1: similarity 1.5 is not in (0, 1]');
    expect(() => parseSynonymList(`a ${'x'.repeat(65)}\n`, 's')).toThrow(/^s:1: a word longer than 64 characters/);
    expect(() => parseSynonymList(`${Array.from({ length: 65 }, (_, i) => `w${i}`).join(' ')}\n`, 's')).toThrow('s:1: more than 64 words in one group');
    expect(() => parseSynonymList('# only a comment\n', 'syn.txt')).toThrow('syn.txt: holds no synonym group');
    expect(() => parseSynonymList('a b\n'.repeat(20_001), 's')).toThrow('s:20001: more than 20000 groups');
    expect(() => parseSynonymList('x'.repeat((1 << 20) + 1), 's')).toThrow(/^s: larger than 1048576 bytes/);
  });
});

describe('RW relevance (seed 003 formula 1)', () => {
  it('averages each anchor word\'s best similarity to the topic\'s terms, by the synonym list', () => {
    const synonyms = parseSynonymList('股票 股市\n0.6: 基金 理财\n0.5: 足球 体育\n', 's');
    const rw = createRwRelevance({ tokenizer: spaces, topic: '股票 基金', synonyms, threshold: 0.3 });
    expect(rw.source).toBe('list');
    expect(rw.terms).toEqual(['股票', '基金']);
    // 股市 → 1 (synonym of 股票), 理财 → 0.6, 新闻 → 0: (1 + 0.6 + 0) / 3
    expect(rw.of('股市 理财 新闻')).toBeCloseTo(1.6 / 3, 12);
    expect(rw.of('基金')).toBe(1);
    // 足球's group holds no topic term: it counts for nothing. 0.6 / 3 = 0.2 < c = 0.3 → 0.
    expect(rw.of('足球 体育')).toBe(0);
    expect(rw.of('理财 新闻 足球')).toBe(0);
    expect(rw.of('理财 新闻')).toBeCloseTo(0.3, 12); // = c: relevant ("≥ c")
    expect(rw.of('')).toBe(0);
  });

  it('builds similarity by co-occurrence in the topic\'s sample sentences when no list is given', () => {
    // Sentences (。): {股票 行情 上涨} {股票 行情} {行情 天气} {基金 债券} {股票 上涨}
    const topic = '股票 行情 上涨。股票 行情。行情 天气。基金 债券。股票 上涨';
    const rw = createRwRelevance({ tokenizer: spaces, topic, threshold: 0 });
    expect(rw.source).toBe('co-occurrence');
    // Counts: 股票 3, 行情 3, 上涨 2: the terms are every word (fewer than TOPIC_TERMS), most frequent first.
    expect(rw.terms).toEqual(['股票', '行情', '上涨', '天气', '基金', '债券']);
    // Every word here is a term itself (r = 1); relatedness shows with a shorter term list, below.
    expect(rw.of('股票 行情')).toBe(1);
    const related = coOccurrence(topic.split('。').map((s) => new Set(s.split(' '))), ['股票']);
    // n(股票) = 3; 行情: n = 3, together 2 → 2·2/(3+3) = 2/3; 上涨: n = 2, together 2 → 4/5; 天气: together 0.
    expect(Object.fromEntries(related)).toEqual({ 行情: 2 / 3, 上涨: 4 / 5 });
    // Seen together once only (基金, 债券 never with 股票): below MIN_CO_OCCURRENCE, not related.
    expect(related.has('天气')).toBe(false);
  });

  it('leaves stop words out of the topic and of the anchor, with the real tokenizer', () => {
    const rw = createRwRelevance({ tokenizer: loadNodeTokenizer(), topic: '的 股票' });
    expect(rw.terms).toEqual(['股票']);
    expect(rw.of('的股票')).toBe(1);
  });

  it('refuses a topic with no words and a threshold outside [0, 1]', () => {
    expect(() => createRwRelevance({ tokenizer: spaces, topic: '  ' })).toThrow('rw: the topic text has no words');
    expect(() => createRwRelevance({ tokenizer: spaces, topic: 'a', threshold: 2 })).toThrow('rw: threshold must lie in [0, 1], got 2');
  });
});
