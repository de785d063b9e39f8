import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { DEFAULT_FEATURE_OPTIONS, linkFeatures } from '../../../shared/features/link-features.ts';
import type { FeatureOptions } from '../../../shared/features/types.ts';

const tokenizer = loadNodeTokenizer();

/** A finance link on a portal's front page, its neighbours' anchors as context (seed 000 §3.3). */
const context: LinkContext = {
  url: 'https://finance.sina.com.cn/stock/gupiao/2024/index.shtml',
  pageUrl: 'https://www.sina.com.cn/',
  anchor: '今日股票行情',
  before: '新浪财经 股票',
  after: '基金 股票',
};

const options = (overrides: Partial<FeatureOptions>): FeatureOptions => ({ ...DEFAULT_FEATURE_OPTIONS, ...overrides });

describe('linkFeatures', () => {
  it('group 1 is the anchor words only', () => {
    expect(linkFeatures(context, tokenizer, options({ group: 1, lexicon: ['股票'] }))).toEqual(
      new Map([['a:今日', 1], ['a:股票行情', 1]]),
    );
  });

  it('group 2 adds context words of both sides, counted, and the lexicon flags', () => {
    expect(linkFeatures(context, tokenizer, options({ group: 2, lexicon: ['股票', '外汇'] }))).toEqual(
      new Map<string, number>([
        ['a:今日', 1],
        ['a:股票行情', 1],
        ['c:新浪', 1],
        ['c:财经', 1],
        ['c:股票', 2],
        ['c:基金', 1],
        ['lex:anchor', 1],
        ['lex:context', 1],
      ]),
    );
  });

  it('sets each lexicon flag only where a term occurs', () => {
    const onlyContext = linkFeatures(context, tokenizer, options({ lexicon: ['基金'] }));
    expect(onlyContext.get('lex:context')).toBe(1);
    expect(onlyContext.has('lex:anchor')).toBe(false);
    const none = linkFeatures(context, tokenizer, options({ lexicon: ['外汇'] }));
    expect(none.has('lex:anchor') || none.has('lex:context')).toBe(false);
    const empty = linkFeatures(context, tokenizer, DEFAULT_FEATURE_OPTIONS);
    expect(empty.has('lex:anchor') || empty.has('lex:context')).toBe(false);
  });

  it('matches lexicon terms as normalised substrings, not tokens', () => {
    const nba = { ...context, anchor: 'NBA体育新闻', before: '', after: '' };
    // jieba makes 体育新闻 one token; the term 新闻 still matches inside it.
    expect(linkFeatures(nba, tokenizer, options({ lexicon: ['ｎｂａ'] })).get('lex:anchor')).toBe(1);
    expect(linkFeatures(nba, tokenizer, options({ lexicon: ['新闻'] })).get('lex:anchor')).toBe(1);
  });

  it('does not make up a lexicon term across the link from before and after', () => {
    const split = { ...context, before: '买入A股', after: '票据贴现' };
    expect(linkFeatures(split, tokenizer, options({ lexicon: ['股票'] })).has('lex:context')).toBe(false);
  });

  it('adds u: tokens of host and path only when asked, without noise or numbers', () => {
    expect(linkFeatures(context, tokenizer, options({ group: 1, urlTokens: true }))).toEqual(
      new Map([['a:今日', 1], ['a:股票行情', 1], ['u:finance', 1], ['u:sina', 1], ['u:stock', 1], ['u:gupiao', 1]]),
    );
    expect([...linkFeatures(context, tokenizer, DEFAULT_FEATURE_OPTIONS).keys()].some((k) => k.startsWith('u:'))).toBe(false);
  });

  it('defaults to group 2, no lexicon, no URL tokens, and is frozen', () => {
    expect(DEFAULT_FEATURE_OPTIONS).toEqual({ group: 2, lexicon: [], urlTokens: false });
    expect(Object.isFrozen(DEFAULT_FEATURE_OPTIONS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_FEATURE_OPTIONS.lexicon)).toBe(true);
  });

  it('rejects an unknown feature group', () => {
    expect(() => linkFeatures(context, tokenizer, options({ group: 3 as never }))).toThrow(RangeError);
  });
});
