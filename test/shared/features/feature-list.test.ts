/**
 * The scorer's feature list (`feature-list.ts`) must hold exactly what `linkFeatures` puts in a
 * vector, in the same order with the same counts, link after link (its slots are reused), and
 * again after its bound on kept names drops them all, whether a feature is passing (its first
 * sighting, listed without a slot) or kept.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/random/seeded-random.ts';
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

describe('FeatureList: tokens found by id', () => {
  it('takes two ids that share a place for their own features, link after link', () => {
    // One place (idSlots 1): each id finds the slot of the other there, and must not take it.
    const list = new FeatureList(19_000, 0, 1);
    for (let round = 0; round < 3; round++) {
      list.begin(true);
      list.emit('a:', '股票', 7);
      list.emit('a:', '基金', 9);
      list.emit('c:', '股票', 7);
      list.emit('a:', '股票', 7);
      expect(listed(list)).toEqual([['a:股票', 2], ['a:基金', 1], ['c:股票', 1]]);
      for (let j = 0; j < list.length; j++) expect(list.memos[j]!.name).toBe(list.names[j]);
    }
  });

  it('finds a feature whatever id or none it comes with', () => {
    // After a token table starts again, a text comes with a new id; a cached text's tokens come with none.
    const list = new FeatureList(19_000, 0, 4);
    const slots = [];
    for (const id of [3, undefined, 11, 3, 1_000_003]) {
      list.begin(true);
      list.emit('c:', '行情', id);
      expect(listed(list)).toEqual([['c:行情', 1]]);
      slots.push(list.memos[0]);
    }
    expect(new Set(slots).size).toBe(1);
  });

  it('lists what linkFeatures gives over random Han links, through places shared by many ids', () => {
    // The tokenizer hands its cached runs' pieces with ids; few places, so they are shared and taken in turns.
    const random = seededRandom(53);
    const chars = [...'股票基金行情软件包安装网络应用客户端列表母版备注扫描上一页下一页部分数据库'];
    const run = () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => chars[Math.floor(random() * chars.length)]).join('');
    const text = (n: number) => Array.from({ length: n }, run).join(' ');
    for (const [maxNames, slots, idSlots] of [[19_000, 2 ** 16, 2], [40, 16, 8], [19_000, 0, 1]] as const) {
      for (const options of variants) {
        const list = new FeatureList(maxNames, slots, idSlots);
        for (let i = 0; i < 200; i++) {
          const link: LinkContext = { url: `https://example.org/${i}.html`, pageUrl: 'https://example.org/', anchor: text(1 + Math.floor(random() * 3)), before: text(Math.floor(random() * 5)), after: text(Math.floor(random() * 5)) };
          list.begin(options.version === 1);
          emitLinkFeatures(link, tokenizer, options, list.emit);
          expect(listed(list)).toEqual([...linkFeatures(link, tokenizer, options)]);
          for (let j = 0; j < list.length; j++) if (list.memos[j] !== undefined) expect(list.memos[j]!.name).toBe(list.names[j]);
        }
      }
    }
  });

  it('checks its places by id', () => {
    expect(() => new FeatureList(19_000, 2 ** 16, 3)).toThrow(RangeError);
  });
});

describe('FeatureList: a feature is kept from its second sighting on', () => {
  it('lists a first sighting without a slot, and gives it one when it comes again', () => {
    const list = new FeatureList();
    list.begin(true);
    list.emit('a:', '股票');
    expect(list.memos[0]).toBeUndefined();
    list.begin(true);
    list.emit('a:', '股票');
    expect(list.memos[0]?.name).toBe('a:股票');
    // The same slot from then on: the model's memo stays with it.
    const slot = list.memos[0];
    list.begin(true);
    list.emit('a:', '股票');
    expect(list.memos[0]).toBe(slot);
  });

  it('counts a passing feature repeated in its link (version 1) and lists it once (version 2)', () => {
    for (const counted of [true, false]) {
      const list = new FeatureList();
      list.begin(counted);
      for (const [prefix, value] of [['c:', 'bench1x7'], ['a:', 'bench1x7'], ['c:', 'bench1x7'], ['c:', 'bench1x7']] as const) list.emit(prefix, value);
      expect(listed(list)).toEqual([['c:bench1x7', counted ? 3 : 1], ['a:bench1x7', 1]]);
      expect(list.memos.slice(0, list.length)).toEqual([undefined, undefined]);
    }
  });

  it('keeps features as before with no admission (admissionSlots 0)', () => {
    const list = new FeatureList(19_000, 0);
    list.begin(false);
    list.emit('u:', 'debian');
    expect(list.memos[0]?.name).toBe('u:debian');
  });

  it('lists what linkFeatures gives for a link of many new words (more than it lets pass)', () => {
    const words = Array.from({ length: 150 }, (_, i) => `w${i.toString(36)}q`);
    const link: LinkContext = { url: 'https://example.org/a/b.html', pageUrl: 'https://example.org/', anchor: words.slice(0, 100).join(' '), before: words.slice(50).join(' '), after: '股票 w1q' };
    for (const options of variants) {
      const list = new FeatureList();
      list.begin(options.version === 1);
      emitLinkFeatures(link, tokenizer, options, list.emit);
      expect(listed(list)).toEqual([...linkFeatures(link, tokenizer, options)]);
    }
  });

  it('lists what linkFeatures gives over random links, words new, recurring and repeated', () => {
    // Words from a small common vocabulary, a larger rare one and fresh ones (one sighting ever);
    // a tiny sighting filter and bound on names, so collisions, evictions and drops all happen.
    const random = seededRandom(14);
    const common = ['股票', '基金', '行情', 'debian', 'node.js', 'c++', '软件包', '安装'];
    const rare = Array.from({ length: 60 }, (_, i) => `r${i}z`);
    let fresh = 0;
    const word = () => {
      const r = random();
      return r < 0.5 ? common[Math.floor(random() * common.length)]! : r < 0.8 ? rare[Math.floor(random() * rare.length)]! : `f${fresh++}y`;
    };
    const text = (n: number) => Array.from({ length: n }, word).join(' ');
    for (const [maxNames, slots] of [[19_000, 2 ** 16], [40, 16], [5, 1]] as const) {
      for (const options of variants) {
        const list = new FeatureList(maxNames, slots);
        for (let i = 0; i < 300; i++) {
          const link: LinkContext = { url: `https://example.org/${word()}/${i}.html?q=${word()}`, pageUrl: 'https://example.org/', anchor: text(1 + Math.floor(random() * 4)), before: text(Math.floor(random() * 8)), after: text(Math.floor(random() * 8)) };
          list.begin(options.version === 1);
          emitLinkFeatures(link, tokenizer, options, list.emit);
          const expected = [...linkFeatures(link, tokenizer, options)];
          expect(listed(list)).toEqual(expected);
          expect(list.attributes.slice(0, list.length)).toEqual(expected.map(([name]) => isAttributeFeature(name)));
          // A slot, where there is one, is the feature's own.
          for (let j = 0; j < list.length; j++) if (list.memos[j] !== undefined) expect(list.memos[j]!.name).toBe(list.names[j]);
        }
      }
    }
  });
});
