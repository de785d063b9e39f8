import { describe, expect, it } from 'vitest';
import type { LinkContext } from '../../../../shared/contexts/types.ts';
import { extractContexts } from '../../../../shared/contexts/extract-contexts.ts';
import { segmentsFromHtml } from '../../../../shared/segments/from-html.ts';
import type { Tokenizer } from '../../../../shared/tokens/types.ts';
import { createLpeStrategy, linkValues } from '../../../../companion/crawl/strategies/lpe-strategy.ts';
import { tfcWeights } from '../../../../companion/crawl/strategies/tfc-weights.ts';

/** Words split at white space: the numbers below are worked out by hand with it. */
const words: Tokenizer = { tokenize: (text) => text.split(/\s+/u).filter((word) => word !== '') };
const pageUrl = 'http://x.test/p.html';

describe('tfcWeights (seed 002 §4.2)', () => {
  it('weighs count × log(N / n_t), then scales each unit to length 1', () => {
    // N = 2 units; a is in both (log 1 = 0, left out), b only in the first: weight 2·ln 2, scaled to 1.
    const [first, second] = tfcWeights([new Map([['a', 1], ['b', 2]]), new Map([['a', 3]])]);
    expect([...first!]).toEqual([['b', 1]]);
    expect(second!.size).toBe(0);
  });
});

describe('lpe on a page of three content blocks (seed 002 §4), worked by hand', () => {
  // Three div containers, one link each: topic "cat".
  const html =
    '<div><p>cat cat fish</p><p><a href="/b1">one</a></p></div>' +
    '<div><p>fish tree sun moon star</p><p><a href="/b2">cat</a></p></div>' +
    '<div><p>tree sun</p><p><a href="/b3">more</a></p></div>';
  const page = segmentsFromHtml(html, pageUrl);
  // Contexts given by hand (the strategy reads whatever before/after the crawl extracted).
  const link = (path: string, anchor: string, before: string): LinkContext => ({ url: `http://x.test${path}`, pageUrl, anchor, before, after: '' });
  const links = [link('/b1', 'one', 'fish'), link('/b2', 'cat', 'tree'), link('/b3', 'more', 'cat sun')];
  /*
   * The collection: N = 10 units: topic T, blocks U1–U3 (anchors are block text), anchors A1–A3, contexts C1–C3.
   *   T  = {cat}                 U1 = {cat:2, fish, one}     A1 = {one}    C1 = {fish}
   *                              U2 = {fish, tree, sun,      A2 = {cat}    C2 = {tree}
   *                                    moon, star, cat}
   *                              U3 = {tree, sun, more}      A3 = {more}   C3 = {cat, sun}
   * Units holding each term, and log(N / n_t):
   *   cat 5 (T U1 U2 A2 C3): ln 2 = 0.6931      fish 3: ln(10/3) = 1.2040   tree 3, sun 3: 1.2040
   *   one 2, more 2: ln 5 = 1.6094              moon 1, star 1: ln 10 = 2.3026
   * T's only term is cat, so T = {cat: 1} and cos(u, T) = u's weight of cat after scaling.
   *   U1: cat 2·0.6931 = 1.3863, fish 1.2040, one 1.6094; length √5.9617 = 2.4416;
   *       cos = 1.3863 / 2.4416 = 0.5678 ≥ θ 0.2: the block is relevant, link 1 scores 0.5678.
   *   U2: cat 0.6931, fish, tree, sun 1.2040 each, moon, star 2.3026 each; length √15.4330 = 3.9285;
   *       cos = 0.6931 / 3.9285 = 0.1764 < 0.2: JFE. A2 = {cat} → 1; C2 = {tree} → 0;
   *       JFE = 0.5·1 + 0.5·0 = 0.5 (the anchor alone says "cat").
   *   U3: no cat → 0: JFE. A3 = {more} → 0; C3: cat 0.6931, sun 1.2040, length √1.9301 = 1.3893,
   *       cos = 0.4989; JFE = 0.5·0 + 0.5·0.4989 = 0.2495 (the context alone says "cat").
   */
  it('gives a relevant block’s relevance to its link, and JFE to links of the other blocks', () => {
    const values = linkValues(page, links, words, 'cat');
    expect(values.map((value) => value.by)).toEqual(['block', 'jfe', 'jfe']);
    expect(values[0]!.value).toBeCloseTo(0.5678, 4);
    expect(values[1]).toMatchObject({ anchorSim: 1, contextSim: 0 });
    expect(values[1]!.blockSim).toBeCloseTo(0.1764, 4);
    expect(values[1]!.value).toBeCloseTo(0.5, 4);
    expect(values[2]).toMatchObject({ blockSim: 0, anchorSim: 0 });
    expect(values[2]!.value).toBeCloseTo(0.2495, 4);
  });

  it('scores the same through the strategy, and with θ above U1’s relevance values link 1 by JFE', () => {
    expect(createLpeStrategy({ tokenizer: words, topic: 'cat' }).scoreLinks({ url: pageUrl, page, depth: 0, score: 1 }, links).map((v) => Number(v.toFixed(4)))).toEqual([0.5678, 0.5, 0.2495]);
    // θ = 0.6: U1 is no longer relevant; A1 = {one} → 0, C1 = {fish} → 0.
    expect(linkValues(page, links, words, 'cat', 0.5, 0.6)[0]).toMatchObject({ by: 'jfe', value: 0 });
    // λ = 1: anchors only.
    expect(linkValues(page, links, words, 'cat', 1).map((v) => v.value)).toEqual([expect.closeTo(0.5678, 4), 1, 0]);
  });

  it('matches links to blocks through extractContexts’ order, a URL linked twice by each place', () => {
    const twice = segmentsFromHtml('<div><p>cat <a href="/x">x</a></p></div><div><p>dog <a href="/x">x</a></p></div>', pageUrl);
    const values = linkValues(twice, extractContexts(twice), words, 'cat');
    expect(values.map((value) => value.by)).toEqual(['block', 'jfe']);
  });

  it('refuses a topic without words and λ or θ out of [0, 1]', () => {
    expect(() => createLpeStrategy({ tokenizer: words, topic: '  ' })).toThrow('lpe: the topic text has no words');
    expect(() => createLpeStrategy({ tokenizer: words, topic: 'cat', lambda: 2 })).toThrow(/lambda/);
    expect(() => createLpeStrategy({ tokenizer: words, topic: 'cat', blockThreshold: -1 })).toThrow(/threshold/);
  });
});
