/** Page notes never outlive their topic: a note in flight when the topic was removed is dropped. */
import { describe, expect, it } from 'vitest';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { memoryDb, topic } from '../support/memory-db.ts';

describe('page notes', () => {
  it('are written for a topic that exists and dropped for one that does not', async () => {
    const db = await memoryDb();
    const repository = createDexieRepository(db);
    const kept = topic({ id: 'kept' });
    await db.topics.put(kept);
    await repository.notePage('kept', { url: 'http://a.test/', title: 'A' });
    await repository.notePage('gone', { url: 'http://a.test/', title: 'A' });
    await repository.markPage('gone', 'http://b.test/', 1);
    expect((await db.pages.toArray()).map((row) => [row.topic, row.url])).toEqual([['kept', 'http://a.test/']]);
    db.close();
  });
});
