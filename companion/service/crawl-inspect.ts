/**
 * What the dashboard asks of one page of a crawl, read from the crawl's store while it may still
 * run (SQLite in WAL mode lets a second connection read): the text a `storeText` crawl kept
 * (`GET /api/crawls/:id/text`). Each answer opens the store, reads, and closes it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PageTextReply } from '../../shared/service-api/types.ts';
import { CrawlStore, STORE_FILE } from '../store/crawl-store.ts';
import { HttpError } from './http-io.ts';

/** The crawl's store, open for the length of `read`; 404 when the crawl has none yet. */
export function withStore<T>(dir: string, read: (store: CrawlStore) => T): T {
  if (!existsSync(join(dir, STORE_FILE))) throw new HttpError(404, 'the crawl has recorded nothing yet');
  const store = CrawlStore.open(dir, { create: false });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

/** The page's kept text; 404 naming why there is none. */
export function pageTextOf(dir: string, url: string): PageTextReply {
  return withStore(dir, (store) => {
    const text = store.extras.text(url);
    if (text) return { url, ...text };
    if (!store.page(url)) throw new HttpError(404, `the crawl has no page ${url.slice(0, 300)}`);
    throw new HttpError(404, store.extras.hasTexts() ? `no text was kept of ${url.slice(0, 300)} (not an HTML page read in full)` : 'this crawl kept no page text (start crawls with storeText: true)');
  });
}
