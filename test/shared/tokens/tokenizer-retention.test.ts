/**
 * The tokenizer keeps no page alive: its cache keys and tokens are strings of their own, not V8
 * slices of the page an anchor was cut from (see `ownString` in tokenizer.ts). Measured on the
 * heap after a full collection, with a margin of ten: 200 pages of 200 kB are 40 MB when held.
 */
import { describe, expect, it } from 'vitest';
import { createTokenizer } from '../../../shared/tokens/tokenizer.ts';
import { heapAfterGc } from '../../support/heap-after-gc.ts';

describe('tokenizer memory', () => {
  it('keeps neither the pages its texts were sliced from nor their tokens\' pages', () => {
    const tokenizer = createTokenizer({ cut: (han) => [han] });
    const kept: string[][] = [];
    const before = heapAfterGc();
    for (let page = 0; page < 200; page++) {
      const html = `<p>${'lorem internationalization '.repeat(7_500)}</p><a>anchor number ${page} of the sheet functions</a>`;
      const anchor = html.slice(html.indexOf('<a>') + 3, html.indexOf('</a>'));
      kept.push(tokenizer.tokenize(anchor));
      // A text too long for the cache: its tokens, which a model may keep, must be free of the page too.
      kept.push(tokenizer.tokenize(html.slice(page, 2_000 + page)));
    }
    const grown = heapAfterGc() - before;
    expect(tokenizer.cacheSize).toBe(200);
    expect(kept).toHaveLength(400);
    expect(grown).toBeLessThan(4_000_000);
  });

  it('keeps no page through its shortest words either: below 13 characters a token is a copy as it is', () => {
    // `ownString` hands a string shorter than 13 characters back as it is, since V8 copies a
    // substring that short; at 13 it may be a view of the page, and is copied.
    const tokenizer = createTokenizer({ cut: (han) => [han], cacheSize: 0 });
    const kept: string[][] = [];
    const before = heapAfterGc();
    for (let page = 0; page < 200; page++) {
      const html = `<p>${'lorem ipsum '.repeat(17_000)}</p> abcdefghijk${page % 10} abcdefghijkl${page % 10}`;
      kept.push(tokenizer.tokenize(html.slice(html.lastIndexOf('</p>') + 4)));
    }
    const grown = heapAfterGc() - before;
    expect(kept[0]).toEqual(['abcdefghijk0', 'abcdefghijkl0']);
    expect(grown).toBeLessThan(4_000_000);
  });
});
