/**
 * The upgrade clean-up of issue 12: before it, reloading the companion's dashboard stored
 * examples whose `pageUrl` carried `?token=…`, and an export file then held the pairing token.
 * This removes every example and seen page whose URL carries a token (`carriesToken`) and says
 * which topics lost examples, so their models can be rebuilt from the examples left.
 *
 * It needs no schema change: it runs on the schema as it is, once per install or update (the
 * background calls it on `runtime.onInstalled`), and running it again finds nothing. A later
 * schema version's upgrade may call it too (it takes the transaction's tables as they are).
 */
import type { LinkScentDb } from './database.ts';
import { carriesToken } from '../companion-client/companion-pages.ts';

export interface TokenCleanup {
  /** Examples removed. */
  examples: number;
  /** Seen-page rows removed. */
  pages: number;
  /** Topics that lost examples: their models must be retrained. */
  topics: string[];
}

/** Removes the examples and pages whose URLs carry `token` (or any loopback `token=`). */
export async function removeTokenUrls(db: LinkScentDb, token: string): Promise<TokenCleanup> {
  const bad = (url: string) => carriesToken(url, token);
  return db.transaction('rw', [db.examples, db.pages], async () => {
    const examples = await db.examples.filter((row) => bad(row.url) || bad(row.pageUrl)).toArray();
    await db.examples.bulkDelete(examples.map((row) => row.id!));
    const pages = await db.pages.filter((row) => bad(row.url)).primaryKeys();
    await db.pages.bulkDelete(pages);
    return { examples: examples.length, pages: pages.length, topics: [...new Set(examples.map((row) => row.topic))] };
  });
}
