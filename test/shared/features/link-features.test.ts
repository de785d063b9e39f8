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

  it('version 2: every feature is present or absent, and URL features add query words, hosts and directories', () => {
    const menu: LinkContext = {
      url: 'https://finance.sina.com.cn/stock/gupiao/list.php?cat=fund&sid=a93f27c1b&page=2',
      pageUrl: 'https://www.sina.com.cn/',
      anchor: '股票 股票',
      before: '基金 股票',
      after: '基金',
    };
    expect(linkFeatures(menu, tokenizer, options({ group: 2, urlTokens: true, version: 2 }))).toEqual(
      new Map<string, number>([
        ['a:股票', 1],
        ['c:基金', 1],
        ['c:股票', 1],
        // u: host and path words, then the query's words: not the session id, not the number
        ['u:finance', 1], ['u:sina', 1], ['u:stock', 1], ['u:gupiao', 1], ['u:list', 1], ['u:cat', 1], ['u:fund', 1], ['u:sid', 1], ['u:page', 1],
        // d: the domains from the top, then the directories (the file name is none)
        ['d:cn', 1], ['d:com.cn', 1], ['d:sina.com.cn', 1], ['d:finance.sina.com.cn', 1],
        ['d:finance.sina.com.cn/stock', 1], ['d:finance.sina.com.cn/stock/gupiao', 1],
      ]),
    );
    // Version 1 keeps counting words, and its URL tokens ignore the query.
    const v1 = linkFeatures(menu, tokenizer, options({ group: 2, urlTokens: true, version: 1 }));
    expect(v1.get('a:股票')).toBe(2);
    expect(v1.has('u:fund') || [...v1.keys()].some((k) => k.startsWith('d:'))).toBe(false);
  });

  it('rejects an unknown feature version', () => {
    expect(() => linkFeatures(context, tokenizer, options({ version: 3 as never }))).toThrow(RangeError);
  });

  it('defaults to group 2, no lexicon, no URL tokens, version 1, and is frozen', () => {
    expect(DEFAULT_FEATURE_OPTIONS).toEqual({ group: 2, lexicon: [], urlTokens: false, version: 1 });
    expect(Object.isFrozen(DEFAULT_FEATURE_OPTIONS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_FEATURE_OPTIONS.lexicon)).toBe(true);
  });

  it('rejects an unknown feature group', () => {
    expect(() => linkFeatures(context, tokenizer, options({ group: 3 as never }))).toThrow(RangeError);
  });
});
