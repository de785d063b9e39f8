/** Issue 12's upgrade clean-up on the shared schema (fake-indexeddb): token URLs go, the rest stays. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTokenUrls } from '../../../extension/storage/token-cleanup.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { exampleKey } from '../../../shared/model/example-key.ts';
import type { LabeledLink } from '../../../shared/model/types.ts';
import { memoryDb } from '../support/memory-db.ts';

const TOKEN = 'Abcdefghijklmnop_0123456789-xyz';
const DASHBOARD = `http://127.0.0.1:7431/dashboard?token=${TOKEN}`;

let db: LinkScentDb;
beforeEach(async () => {
  db = await memoryDb();
});
afterEach(() => db.close());

const example = (url: string, pageUrl: string, topic: string): LabeledLink => ({ url, pageUrl, anchor: 'a', before: '', after: '', label: 0, source: 'pattern', topic });

describe('removeTokenUrls', () => {
  it('removes the examples and pages whose URLs carry a token and names the topics that lost some', async () => {
    const rows = [
      example('https://example.org/1', DASHBOARD, 't1'),
      example(`http://127.0.0.1:7431/api/crawls?token=${TOKEN}`, 'https://example.org/', 't2'),
      example('https://example.org/2', 'https://example.org/', 't2'),
      example('https://example.org/3', 'https://example.org/', 't3'),
    ];
    await db.examples.bulkAdd(rows.map((row) => ({ ...row, key: exampleKey(row), addedAt: 1 })));
    await db.pages.bulkPut([
      { topic: 't1', url: DASHBOARD, title: 'LinkScent', seenAt: 1 },
      { topic: 't1', url: 'https://example.org/', title: 'Example', seenAt: 1 },
    ]);
    expect(await removeTokenUrls(db, TOKEN)).toEqual({ examples: 2, pages: 1, topics: ['t1', 't2'] });
    expect((await db.examples.toArray()).map((row) => row.url)).toEqual(['https://example.org/2', 'https://example.org/3']);
    expect((await db.pages.toArray()).map((row) => row.url)).toEqual(['https://example.org/']);
    expect(JSON.stringify(await db.examples.toArray())).not.toContain(TOKEN);
    // Run again (every update runs it): nothing left to do.
    expect(await removeTokenUrls(db, TOKEN)).toEqual({ examples: 0, pages: 0, topics: [] });
  });
});
