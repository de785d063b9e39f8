/**
 * The Worker's engine on the shared schema (fake-indexeddb) with the real tokenizer and model:
 * passive examples are learned at once and without duplicates, marks relabel, the warm model
 * always equals one trained from the stored examples, and export → clear → import gives back
 * the same examples and the same scores.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../extension/worker/engine.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import { linkFeatures } from '../../../shared/features/link-features.ts';
import type { LabeledLink, Topic } from '../../../shared/model/types.ts';
import { hubExamples, memoryDb, tokenizer, topic as makeTopic } from '../support/memory-db.ts';

let db: LinkScentDb;
let engine: Engine;
let topic: Topic;

beforeEach(async () => {
  db = await memoryDb();
  engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
  topic = makeTopic();
  await db.topics.put(topic);
});
afterEach(async () => {
  await engine.flush();
  db.close();
});

const link = (ref: number, anchor: string, url = `https://news.example.com/${ref}`) => ({
  ref,
  url,
  pageUrl: 'https://news.example.com/',
  anchor,
  before: '',
  after: '',
});

/** The model trained from scratch on the stored examples, as rows without the save time. */
async function batchRows(t: Topic) {
  const model = new NaiveBayes({ form: t.form });
  for (const row of await db.examples.where('topic').equals(t.id).toArray()) {
    model.add(linkFeatures(row, tokenizer, { group: t.featureGroup, lexicon: t.lexicon, urlTokens: false }), row.label);
  }
  return withoutTime(model.toRows(t.id));
}

function withoutTime(rows: ReturnType<NaiveBayes['toRows']>) {
  const { savedAt: _savedAt, ...header } = rows.header;
  return { header, features: [...rows.features].sort((a, b) => (a.feature < b.feature ? -1 : 1)) };
}

async function storedRows(t: Topic) {
  await engine.flush();
  const header = await db.models.get(t.id);
  const features = await db.features.where('topic').equals(t.id).toArray();
  return withoutTime({ header: header!, features });
}

describe('worker engine', () => {
  it('learns passive examples at once, so the next page is scored by them', async () => {
    const [before] = await engine.scoreLinks(topic, [link(0, '基金 股票 投资')]);
    expect(before!.p).toBeCloseTo(0.5);
    expect(await engine.observe(topic, hubExamples(topic.id))).toEqual({ added: 12 });
    const verdicts = await engine.scoreLinks(topic, [link(1, '基金 股票 投资'), link(2, '足球 联赛 冠军')]);
    expect(verdicts[0]!.p).toBeGreaterThan(0.9);
    expect(verdicts[0]!.level).toBeGreaterThan(0);
    expect(verdicts[0]!.top[0]!.weight).toBeGreaterThan(0);
    expect(verdicts[1]!.p).toBeLessThan(0.1);
    expect(verdicts[1]!.level).toBe(0);
  });

  it('stores each link context once, however often its page is seen', async () => {
    await engine.observe(topic, hubExamples(topic.id), { url: 'https://portal.example.net/', title: 'Portal' });
    expect(await engine.observe(topic, hubExamples(topic.id), { url: 'https://portal.example.net/', title: 'Portal' })).toEqual({ added: 0 });
    expect(await db.examples.count()).toBe(12);
    expect(await engine.counts(topic)).toEqual({ byLabel: { on: 6, off: 6 }, bySource: { pattern: 12 }, pagesSeen: 1 });
  });

  it('keeps the warm, saved model equal to one trained from the stored examples (incremental = batch)', async () => {
    await engine.observe(topic, hubExamples(topic.id).slice(0, 5));
    await engine.observe(topic, hubExamples(topic.id));
    await engine.observe(topic, hubExamples(topic.id, 'https://other.example.net/'));
    expect(await storedRows(topic)).toEqual(await batchRows(topic));
  });

  it('relabels every stored context pointing to a marked page, and the model follows', async () => {
    const examples = hubExamples(topic.id);
    await engine.observe(topic, [...examples, ...hubExamples(topic.id, 'https://other.example.net/')]);
    const target = examples[6]!.url; // a sport link, labeled 0 by pattern, found on two pages
    expect(await engine.labelTarget(topic, target, 1, 'page')).toEqual({ labeled: 2 });
    const rows = await db.examples.where('url').equals(target).toArray();
    expect(rows.map((row) => [row.label, row.source])).toEqual([
      [1, 'page'],
      [1, 'page'],
    ]);
    expect((await db.pages.get([topic.id, target]))?.label).toBe(1);
    expect(await storedRows(topic)).toEqual(await batchRows(topic));
  });

  it('never lets a pattern override what a person said', async () => {
    const [first] = hubExamples(topic.id);
    await engine.observe(topic, [{ ...first!, label: 0, source: 'user' }]);
    await engine.observe(topic, [first!]);
    const row = await db.examples.where('url').equals(first!.url).first();
    expect([row!.label, row!.source]).toEqual([0, 'user']);
  });

  it('marks one link from one page only (context menu)', async () => {
    await engine.observe(topic, [...hubExamples(topic.id), ...hubExamples(topic.id, 'https://other.example.net/')]);
    const url = hubExamples(topic.id)[0]!.url;
    expect(await engine.labelTarget(topic, url, 0, 'user', 'https://other.example.net/')).toEqual({ labeled: 1 });
    expect((await db.examples.where('url').equals(url).toArray()).map((r) => r.label).sort()).toEqual([0, 1]);
  });

  it('retrains when the topic’s features change', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const group1 = { ...topic, featureGroup: 1 as const, lexicon: ['股票'] };
    await db.topics.put(group1);
    await engine.scoreLinks(group1, [link(0, '股票')]);
    expect(await storedRows(group1)).toEqual(await batchRows(group1));
    expect((await db.features.where('topic').equals(topic.id).toArray()).every((row) => row.feature.startsWith('a:'))).toBe(true);
  });

  it('forgets a topic entirely, and a late save does not bring it back', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    await db.topics.delete(topic.id);
    await engine.dropTopic(topic.id);
    await engine.observe(topic, hubExamples(topic.id, 'https://late.example.net/'));
    await engine.flush();
    expect(await db.examples.count()).toBe(0);
    expect(await db.models.count()).toBe(0);
    expect(await db.topics.count()).toBe(0);
  });

  /** Hub examples of `pages` pages on distinct hosts, each page's targets its own (no template links). */
  function manyPages(pages: number): LabeledLink[] {
    const many: LabeledLink[] = [];
    for (let page = 0; page < pages; page++) {
      many.push(...hubExamples(topic.id, `https://portal${page}.example.net/`).map((example) => ({ ...example, url: `${example.url}-${page}` })));
    }
    return many;
  }

  it('measures precision and recall at the fixed threshold once there are enough examples', async () => {
    expect(await engine.evaluateHeldOut(topic)).toMatchObject({ figures: null, mode: 'fixed', threshold: 0.5 });
    await engine.observe(topic, manyPages(8));
    const heldOut = await engine.evaluateHeldOut(topic);
    expect(heldOut.n).toBeGreaterThanOrEqual(10);
    expect(heldOut.positives).toBeGreaterThan(0);
    expect(heldOut.positives).toBeLessThan(heldOut.n);
    expect(heldOut.figures!.precision).toBeGreaterThan(0.9);
    expect(heldOut.figures!.recall).toBeGreaterThan(0.9);
  });

  it('calibrates the threshold on held-out examples and judges links at it', async () => {
    const calibrated = { ...topic, thresholdMode: 'f1' as const, threshold: 0.999 };
    await db.topics.put(calibrated);
    await engine.observe(calibrated, manyPages(8));
    const heldOut = await engine.evaluateHeldOut(calibrated);
    expect(heldOut.mode).toBe('f1');
    expect(heldOut.threshold).toBeGreaterThan(0);
    expect(heldOut.threshold).toBeLessThan(1);
    expect(heldOut.threshold).not.toBe(0.999);
    expect(heldOut.figures!.f1).toBeGreaterThan(0.9);
    // Scored at the calibrated threshold, not at the topic's 0.999.
    const [verdict] = await engine.scoreLinks(calibrated, [link(0, '基金 投资 收益')]);
    expect(verdict!.p).toBeGreaterThanOrEqual(heldOut.threshold);
    expect(verdict!.level).toBeGreaterThan(0);
  });

  it('learns a template link from its first pages only, not again on every page of the site', async () => {
    for (let page = 0; page < 6; page++) await engine.observe(topic, hubExamples(topic.id, `https://portal.example.net/${page}.html`));
    // Every one of the 12 links is on every page of one host: learned on the first three pages.
    expect(await db.examples.count()).toBe(36);
    // Another host's pages are another site.
    await engine.observe(topic, hubExamples(topic.id, 'https://elsewhere.example.net/'));
    expect(await db.examples.count()).toBe(48);
  });

  it('lights a template link only when its own evidence is strong, and never a link to the page itself', async () => {
    await engine.observe(topic, manyPages(4));
    const pageLinks = (pageUrl: string) => [
      { ...link(0, '菜单 导航'), url: 'https://news.example.com/menu', pageUrl },
      { ...link(1, '基金 股票 投资'), url: pageUrl, pageUrl },
    ];
    let verdicts = await engine.scoreLinks(topic, pageLinks('https://news.example.com/a'));
    expect(verdicts[1]).toMatchObject({ level: 0, self: true });
    expect(verdicts[1]!.p).toBeGreaterThan(0.5);
    for (const page of ['b', 'c']) verdicts = await engine.scoreLinks(topic, pageLinks(`https://news.example.com/${page}`));
    expect(verdicts[0]).toMatchObject({ template: true, level: 0 });
  });

  it("shows the user's mark on every page where the link appears, whatever the model says", async () => {
    await engine.observe(topic, manyPages(4));
    const target = 'https://sport.example.org/0-0';
    const before = await engine.scoreLinks(topic, [{ ...link(0, '足球 比赛 进球'), url: target, pageUrl: 'https://other.example.com/' }]);
    expect(before[0]!.level).toBe(0);
    await engine.labelTarget(topic, target, 1, 'user');
    const after = await engine.scoreLinks(topic, [{ ...link(0, '足球 比赛 进球'), url: target, pageUrl: 'https://third.example.com/' }]);
    expect(after[0]).toMatchObject({ mark: 1, level: 3 });
  });

  it('exports, and after a clear imports the same examples with the same scores', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const links = [link(0, '基金 股票 投资'), link(1, '足球 联赛 冠军'), link(2, '天气 预报')];
    const scores = await engine.scoreLinks(topic, links);
    const file = await engine.exportDatabase();

    await db.topics.delete(topic.id);
    await engine.dropTopic(topic.id);
    expect(await db.examples.count()).toBe(0);

    expect(await engine.importDatabase(file)).toEqual({ topics: 1, examples: 12, duplicates: 0, total: 12 });
    expect(await db.topics.get(topic.id)).toEqual(topic);
    expect(await engine.counts(topic)).toMatchObject({ byLabel: { on: 6, off: 6 } });
    expect(await engine.scoreLinks(topic, links)).toEqual(scores);
  });

  it('refuses a corrupt or foreign file with one line and changes nothing', async () => {
    await engine.observe(topic, hubExamples(topic.id));
    const file = await engine.exportDatabase();
    await expect(engine.importDatabase(file.slice(0, file.length - 40))).rejects.toThrow(/^corrupt model file: invalid JSON/);
    await expect(engine.importDatabase('{"hello": 1}')).rejects.toThrow(/not a LinkScent model file/);
    const foreign = JSON.parse(file);
    foreign.data.databaseName = 'someone-else';
    await expect(engine.importDatabase(JSON.stringify(foreign))).rejects.toThrow(/not LinkScent's/);
    expect(await db.examples.count()).toBe(12);
    expect(await db.topics.count()).toBe(1);
  });
});
