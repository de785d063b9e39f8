/**
 * Pages recorded for a shared frontier before Redis answered (`store/unconfirmed-pages.ts`), on a
 * real SQLite file: not yet pages for what reads the record, confirmed or undone without a trace,
 * and still marked after the store is closed and opened again, as a killed worker leaves them.
 */
import { describe, expect, it } from 'vitest';
import type { CrawlStore } from '../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../companion/store/records.ts';
import { useTempStores } from './temp-stores.ts';

const stores = useTempStores('linkscent-unconfirmed-');
const store = (create?: boolean) => stores.store(create);

const parent = 'http://seed.test/';

function claimed(url: string): FrontierEntry {
  return { url, score: 0.5, depth: 1, parent, host: new URL(url).host, context: { anchor: `to ${url}`, before: 'b', after: 'a' } };
}

function page(url: string, overrides: Partial<PageRecord> = {}): PageRecord {
  return { url, finalUrl: url, status: 200, depth: 1, parent, score: 0.5, fetchedAt: '2024-01-01T00:00:00.000Z', bytes: 10, contentType: 'text/html', outcome: 'ok', relevance: 1, ...overrides };
}

/** Records `url` as a shared frontier's worker does first: unconfirmed, with its claimed row. */
function recordUnconfirmed(s: CrawlStore, url: string, overrides: Partial<PageRecord> = {}, text = false): number {
  const extras = text ? { text: { title: 't', text: 'body', truncated: false } } : {};
  return s.recordUnconfirmed(page(url, overrides), claimed(url), Date.now(), extras).seq!;
}

const urls = (pages: Iterable<PageRecord>) => [...pages].map((p) => p.url);

describe('unconfirmed pages', () => {
  it('are not yet pages: the record leaves them out, and online learning stops before the first one', () => {
    const s = store();
    const one = recordUnconfirmed(s, 'http://a.test/1');
    const two = recordUnconfirmed(s, 'http://a.test/2');
    const three = recordUnconfirmed(s, 'http://a.test/3');
    s.unconfirmed.confirm(one);
    s.unconfirmed.confirm(three);
    expect(urls(s.pages())).toEqual(['http://a.test/1', 'http://a.test/3']);
    // Page 3 is confirmed, but the learner moves past a page once: it waits for page 2's answer.
    expect(s.settledPagesSince(0).map((p) => p.url)).toEqual(['http://a.test/1']);
    expect(s.unconfirmed.list()).toEqual([{ seq: two, url: 'http://a.test/2' }]);
    s.unconfirmed.confirm(two);
    expect(s.settledPagesSince(one).map((p) => [p.url, p.context?.anchor])).toEqual([
      ['http://a.test/2', 'to http://a.test/2'],
      ['http://a.test/3', 'to http://a.test/3'],
    ]);
    expect(urls(s.pages())).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
  });

  it('are undone without a trace: the page, its text, the frontier rows it wrote; a redirect target another page stands for stays', () => {
    const s = store();
    const kept = recordUnconfirmed(s, 'http://a.test/old', { finalUrl: 'http://a.test/new' });
    s.unconfirmed.confirm(kept);
    const before = s.counts();
    const undone = recordUnconfirmed(s, 'http://a.test/moved', { finalUrl: 'http://a.test/new' }, true);
    const alone = recordUnconfirmed(s, 'http://b.test/1', { finalUrl: 'http://b.test/2' });
    expect(s.counts()).toMatchObject({ done: before.done + 3, pages: 3 });

    expect(s.unconfirmed.undo(undone)).toBe(true);
    expect(s.unconfirmed.undo(alone)).toBe(true);
    expect(s.unconfirmed.undo(alone)).toBe(false); // gone already
    expect(s.page('http://a.test/moved')).toBeUndefined();
    expect(s.extras.text('http://a.test/moved')).toBeUndefined();
    expect(s.frontierEntry('http://a.test/moved')).toBeUndefined();
    expect(s.frontierEntry('http://b.test/1')).toBeUndefined();
    expect(s.frontierEntry('http://b.test/2')).toBeUndefined();
    expect(s.frontierEntry('http://a.test/new')?.state).toBe('done'); // the kept page's redirect target
    expect(s.counts()).toEqual(before);
    expect(s.unconfirmed.list()).toEqual([]);
    // A page's fetch order is never given again (shared learning pushes by it).
    expect(recordUnconfirmed(s, 'http://a.test/moved')).toBeGreaterThan(alone);
  });

  it('stay marked in the file, as a killed worker leaves them, until settled', () => {
    const first = store();
    const seq = recordUnconfirmed(first, 'http://a.test/1');
    first.close();
    const reopened = store(false);
    expect(reopened.unconfirmed.list()).toEqual([{ seq, url: 'http://a.test/1' }]);
    expect(urls(reopened.pages())).toEqual([]);
    reopened.unconfirmed.confirm(seq);
    expect(urls(reopened.pages())).toEqual(['http://a.test/1']);
  });
});
