/** A parsed page's segments packed by a parse thread and read back on the event loop (`companion/parse/packed-page.ts`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packPage, transferable, unpackPage } from '../../../companion/parse/packed-page.ts';
import { parsePage } from '../../../companion/parse/parse-page.ts';

const html = readFileSync(join(import.meta.dirname, '../../fixtures/html/news-portal-zh.html'), 'utf8');
const { page } = parsePage({ html, pageUrl: 'http://news.test/', window: 80 });

describe('packPage / unpackPage', () => {
  it('gives back the same page, its keys in the same order', () => {
    expect(page.segments.length).toBeGreaterThan(10);
    const back = unpackPage(structuredClone(packPage(page)));
    expect(back).toEqual(page);
    expect(JSON.stringify(back)).toBe(JSON.stringify(page));
  });

  it('keeps a page without blocks without them', () => {
    const { blocks: _blocks, ...bare } = page;
    const back = unpackPage(packPage(bare));
    expect('blocks' in back).toBe(false);
    expect(back).toEqual(bare);
  });

  it('lets the segments be replaced, as a hook may', () => {
    const back = unpackPage(packPage(page));
    back.segments = [{ kind: 'text', text: 'replaced' }];
    expect(back.segments).toEqual([{ kind: 'text', text: 'replaced' }]);
    expect(back.blocks).toEqual(page.blocks);
  });

  it('transfers a buffer of its own, copying a view into a larger one', () => {
    const packed = packPage(page);
    const larger = new Uint8Array(packed.bulk.byteLength + 8);
    larger.set(packed.bulk, 8);
    packed.bulk = larger.subarray(8);
    const buffer = transferable(packed);
    expect(buffer).not.toBe(larger.buffer);
    expect(buffer.byteLength).toBe(packed.bulk.byteLength);
    expect(unpackPage(packed)).toEqual(page);
  });
});
