/**
 * A crawl store written by a process that then kills itself with SIGKILL, for the WAL test
 * (`test/companion/store/wal-kill.test.ts`): `node --import tsx store-kill-child.ts <dir> <pages>`.
 * Records `pages` pages (a multiple of 4) of 200 new links each through the store's write batches of
 * 4 pages, as a crawl on its own frontier does, printing each page's URL once `durable()` resolved
 * for it (what a crawl would report), then one more page left in an open batch, and dies: no handler runs, the
 * connection is never closed, so nothing checkpoints the WAL on the way out.
 */
import { CrawlStore } from '../../../companion/store/crawl-store.ts';
import type { FrontierEntry, PageRecord } from '../../../companion/store/records.ts';

const [dir, pages] = process.argv.slice(2);
const store = CrawlStore.open(dir!, { create: true });
store.batchWrites({ pages: 4, ms: 1_000_000 });
const page = (url: string): PageRecord => ({ url, finalUrl: url, status: 200, depth: 1, parent: null, score: 1, fetchedAt: '2024-01-01T00:00:00.000Z', bytes: 1, contentType: 'text/html', outcome: 'ok' });
const children = (p: number): FrontierEntry[] =>
  Array.from({ length: 200 }, (_, i) => ({ url: `http://a.test/${p}/${i}/${'x'.repeat(40)}`, score: ((p * 200 + i) * 7919 % 10007) / 10007, depth: 2, parent: `http://a.test/${p}`, host: 'a.test', context: { anchor: `链接 ${i}`, before: '前'.repeat(30), after: '后'.repeat(30) } }));
for (let p = 0; p < Number(pages); p++) {
  store.recordPage(page(`http://a.test/${p}`), children(p));
  if (p % 4 !== 3) continue; // the batch commits at its fourth page
  await store.durable();
  for (let q = p - 3; q <= p; q++) process.stdout.write(`http://a.test/${q}\n`);
}
store.recordPage(page('http://a.test/lost'), children(Number(pages))); // in the open batch: lost with the process
process.kill(process.pid, 'SIGKILL');
