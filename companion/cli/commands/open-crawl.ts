/**
 * Opening a crawl directory's store to read it (`export`, `why`): one wording for a directory
 * that holds no crawl, so both commands report it alike.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlStore, STORE_FILE } from '../../store/crawl-store.ts';
import { CliFailure } from '../errors.ts';

export function openCrawlStore(dir: string): CrawlStore {
  if (!existsSync(join(dir, STORE_FILE))) throw new CliFailure(`${dir} holds no crawl (no ${STORE_FILE}); give the --out directory of a linkscent crawl`);
  return CrawlStore.open(dir, { create: false });
}
