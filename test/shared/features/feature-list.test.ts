/**
 * The scorer's feature list (`feature-list.ts`) must hold exactly what `linkFeatures` puts in a
 * vector, in the same order with the same counts, link after link (its slots are reused), and
 * again after its bound on kept names drops them all.
 */
import { describe, expect, it } from 'vitest';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import type { LinkContext } from '../../../shared/contexts/types.ts';
import { FeatureList } from '../../../shared/features/feature-list.ts';
import { emitLinkFeatures, linkFeatures } from '../../../shared/features/link-features.ts';
import { isAttributeFeature, type FeatureOptions } from '../../../shared/features/types.ts';

const tokenizer = loadNodeTokenizer();

const links: LinkContext[] = [
  {
    url: 'https://finance.sina.com.cn/stock/gupiao/list.php?cat=fund&page=2',
    pageUrl: 'https://www.sina.com.cn/',
    anchor: '股票 股票 行情',
    before: '基金 股票',
    after: '基金 Fund',
  },
  { url: 'https://finance.sina.com.cn/stock/gupiao/2.html', pageUrl: 'https://www.sina.com.cn/', anchor: '基金 排行', before: '股票 行情', after: '' },
  { url: 'https://sports.sina.com.cn/nba/', pageUrl: 'https://www.sina.com.cn/', anchor: 'NBA 直播', before: '基金 排行', after: '足球 足球' },
];

const variants: FeatureOptions[] = [
  { group: 2, lexicon: ['股票'], urlTokens: true, version: 1 },
  { group: 2, lexicon: ['基金'], urlTokens: true, version: 2 },
  { group: 1, lexicon: [], urlTokens: false, version: 1 },
];

function listed(list: FeatureList): [string, number][] {
  return Array.from({ length: list.length }, (_, i): [string, number] => [list.names[i]!, list.counts[i]!]);
}

describe('FeatureList', () => {
  it.each(variants)('lists what linkFeatures gives, in order, link after link (%o)', (options) => {
    const list = new FeatureList();
    // Twice over, so the second pass reuses every slot the first made.
    for (const link of [...links, ...links]) {
      list.begin(options.version === 1);
      emitLinkFeatures(link, tokenizer, options, list.emit);
      const expected = [...linkFeatures(link, tokenizer, options)];
      expect(listed(list)).toEqual(expected);
      expect(list.attributes.slice(0, list.length)).toEqual(expected.map(([name]) => isAttributeFeature(name)));
    }
  });

  it('counts a repeated word in version 1 and keeps it once in version 2', () => {
    const list = new FeatureList();
    list.begin(true);
    emitLinkFeatures(links[0]!, tokenizer, variants[0]!, list.emit);
    expect(listed(list)).toContainEqual(['a:股票', 2]);
    list.begin(false);
    emitLinkFeatures(links[0]!, tokenizer, variants[1]!, list.emit);
    expect(listed(list)).toContainEqual(['a:股票', 1]);
  });

  it('takes a token equal to one it keeps as that feature, whatever string object carries it', () => {
    // Slots are keyed by the first caller's string; an equal token made anew (another text's
    // slice, a concatenation) must still find its slot, in a link and from link to link.
    const list = new FeatureList();
    const made = (s: string) => [...s].join('');
    list.begin(true);
    list.emit('a:', '股票');
    list.emit('a:', made('股票'));
    list.emit('c:', made('股票'));
    expect(listed(list)).toEqual([['a:股票', 2], ['c:股票', 1]]);
    list.begin(true);
    list.emit('c:', made('股票'));
    list.emit('a:', made('股票'));
    expect(listed(list)).toEqual([['c:股票', 1], ['a:股票', 1]]);
    expect(list.names[1]).toBe('a:股票');
  });

  it('stays right when its bound on kept names drops them between links', () => {
    const list = new FeatureList(3);
    for (const link of [...links, ...links]) {
      list.begin(false);
      emitLinkFeatures(link, tokenizer, variants[1]!, list.emit);
      expect(listed(list)).toEqual([...linkFeatures(link, tokenizer, variants[1]!)]);
    }
  });
});
