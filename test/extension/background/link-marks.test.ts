import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { labelOfMenuItem, markLink, MENU_IDS } from '../../../extension/background/link-marks.ts';
import type { WorkerCaller } from '../../../extension/background/services.ts';
import type { WorkerRemote } from '../../../extension/background/worker-host.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { createEngine, type Engine } from '../../../extension/worker/engine.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { hubExamples, memoryDb, tokenizer, topic as makeTopic } from '../support/memory-db.ts';

let db: LinkScentDb;
let engine: Engine;
let worker: WorkerCaller;
const topic = makeTopic();

beforeEach(async () => {
  db = await memoryDb();
  await db.topics.put(topic);
  engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
  worker = { call: (_what, fn) => fn(engine as unknown as WorkerRemote) };
});
afterEach(async () => {
  await engine.flush();
  db.close();
});

describe('marking a link from the context menu', () => {
  it('maps the two menu items to labels and ignores others', () => {
    expect(labelOfMenuItem(MENU_IDS.on)).toBe(1);
    expect(labelOfMenuItem(MENU_IDS.off)).toBe(0);
    expect(labelOfMenuItem('something-else')).toBeNull();
  });

  it('relabels the stored context of that link on that page (source user)', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const [first] = hubExamples(topic.id);
    const n = await markLink(worker, topic, { linkUrl: `${first!.url}#frag`, pageUrl: first!.pageUrl }, 0);
    expect(n).toBe(1);
    const row = await db.examples.where('url').equals(first!.url).first();
    expect([row!.label, row!.source]).toEqual([0, 'user']);
    expect(await db.examples.count()).toBe(12);
  });

  it('learns a link the page never sent from its URL and text', async () => {
    const n = await markLink(worker, topic, { linkUrl: 'https://x.example.org/a', pageUrl: 'https://p.example.org/', linkText: '基金 行情' }, 1);
    expect(n).toBe(1);
    expect(await db.examples.toArray()).toMatchObject([{ url: 'https://x.example.org/a', anchor: '基金 行情', label: 1, source: 'user' }]);
  });

  it('does nothing for a link that is not a web URL', async () => {
    expect(await markLink(worker, topic, { linkUrl: 'mailto:a@b.c', pageUrl: 'https://p.example.org/' }, 1)).toBe(0);
    expect(await db.examples.count()).toBe(0);
  });
});
