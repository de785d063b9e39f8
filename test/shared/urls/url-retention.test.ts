/**
 * A link's URL keeps no page alive. htmlparser2 hands attribute values over as V8 slices of the
 * page's HTML, and `urlResolver` joins a plain relative href without the URL parser, so unless it
 * makes a string of its own, every URL kept after its page (a crawl's verdict cache, frontier
 * maps) would hold the page (`ownString`). Measured on the heap after a full collection, with a
 * margin of ten: 200 pages of 200 kB are 40 MB when held.
 */
import { describe, expect, it } from 'vitest';
import { segmentsFromHtml } from '../../../shared/segments/from-html.ts';
import { heapAfterGc } from '../../support/heap-after-gc.ts';

describe('link URLs and their pages', () => {
  it('keeps none of the pages whose plain relative hrefs it resolved', () => {
    const kept: string[] = [];
    const before = heapAfterGc();
    for (let page = 0; page < 200; page++) {
      const html = `<p>${'lorem internationalization '.repeat(7_500)}</p><a href="chapter-${page}/section.html#top">next</a>`;
      for (const segment of segmentsFromHtml(html, `http://127.0.0.1/manual/part-${page}/index.html`).segments) {
        if (segment.kind === 'link') kept.push(segment.url);
      }
    }
    const grown = heapAfterGc() - before;
    expect(kept).toHaveLength(200);
    expect(kept[7]).toBe('http://127.0.0.1/manual/part-7/chapter-7/section.html');
    expect(grown).toBeLessThan(4_000_000);
  });
});
