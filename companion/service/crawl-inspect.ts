/**
 * What the dashboard asks of one page of a crawl, read from the crawl's store while it may still
 * run (SQLite in WAL mode lets a second connection read): the text a `storeText` crawl kept
 * (`GET /api/crawls/:id/text`) and why a URL came when it did (`GET /api/crawls/:id/why`,
 * `crawl/why.ts`). Each answer opens the store, reads, and closes it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PageTextReply, WhyReply } from '../../shared/service-api/types.ts';
import type { Tokenizer } from '../../shared/tokens/types.ts';
import { explainUrl, UnknownUrlError } from '../crawl/why.ts';
import { CrawlStore, STORE_FILE } from '../store/crawl-store.ts';
import { HttpError } from './http-io.ts';

/** The crawl's store, open until `read` settles; 404 when the crawl has none yet. */
function withStore<T>(dir: string, read: (store: CrawlStore) => T): T {
  if (!existsSync(join(dir, STORE_FILE))) throw new HttpError(404, 'the crawl has recorded nothing yet');
  const store = CrawlStore.open(dir, { create: false });
  let result: T;
  try {
    result = read(store);
  } catch (error) {
    store.close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => store.close()) as T;
  store.close();
  return result;
}

/** Why `url` came when it did; 404 for a URL the crawl never met. */
export function whyOf(dir: string, url: string, tokenizer: () => Promise<Tokenizer>): Promise<WhyReply> {
  return withStore(dir, (store) =>
    explainUrl(store, url, { tokenizer }).catch((error: unknown) => {
      throw error instanceof UnknownUrlError ? new HttpError(404, error.message) : error;
    }),
  );
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
