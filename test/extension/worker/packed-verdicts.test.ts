/**
 * The Worker's packed verdicts (extension/messages/packed-verdicts.ts) through a structured clone,
 * as comlink sends them: unpacked, they are the very verdicts the engine built, field for field,
 * bit for bit and in the same key order (the content script gets them as JSON), for every kind
 * of verdict and for a real engine's batch.
 */
import { describe, expect, it } from 'vitest';
import { packVerdicts, unpackVerdicts } from '../../../extension/messages/packed-verdicts.ts';
import type { LinkVerdict } from '../../../extension/messages/page-links.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { createEngine } from '../../../extension/worker/engine.ts';
import { verdictOf } from '../../../extension/worker/verdicts.ts';
import { FINANCE_ANCHORS, hubExamples, memoryDb, SPORT_ANCHORS, tokenizer, topic as makeTopic } from '../support/memory-db.ts';

/** What the background gets from the Worker's verdicts. */
const overTheWire = (verdicts: LinkVerdict[]) => unpackVerdicts(structuredClone(packVerdicts(verdicts)));

/** Equal as the content script would see them (JSON keeps the key order) and as values. */
function expectSame(actual: LinkVerdict[], expected: LinkVerdict[]) {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  actual.forEach((verdict, i) => {
    expect(Object.is(verdict.p, expected[i]!.p)).toBe(true);
    verdict.top.forEach((c, j) => expect(Object.is(c.weight, expected[i]!.top[j]!.weight)).toBe(true));
  });
}

describe('packed verdicts', () => {
  it('unpack to every kind of verdict as verdictOf made it', () => {
    const top = [
      { feature: 'a:基金', weight: 0.1 + 0.2 },
      { feature: 'u:stock', weight: -1e-300 },
      { feature: 'd:news.example.com/财经/股票', weight: 3 },
      { feature: 'c:\u0000x', weight: -0 },
    ];
    const explain = () => top;
    const verdicts = [
      verdictOf(0, { p: 0.2 }, 0.5, {}, explain), // unlit: no explanation
      verdictOf(1, { p: 0.7 }, 0.5, {}, explain), // lit, explained
      verdictOf(2, { p: 0.97 }, 0.5, { template: true }, explain),
      verdictOf(3, { p: 0.7 }, 0.5, { template: true }, explain),
      verdictOf(4, { p: 0.99 }, 0.5, { self: true, mark: 1 }, explain),
      verdictOf(5, { p: 0.01 }, 0.5, { mark: 1 }, explain),
      verdictOf(6, { p: 0.99 }, 0.5, { mark: 0 }, explain),
      verdictOf(2 ** 40 + 1, { p: Number.NaN }, 0.5, {}, explain),
      verdictOf(8, { p: 1 }, 0.999, {}, () => []), // lit with nothing to explain
    ];
    expect(verdicts.map((v) => v.top.length)).toEqual([0, 4, 4, 0, 0, 4, 0, 0, 0]);
    expectSame(overTheWire(verdicts), verdicts);
  });

  it('unpack an empty batch to none', () => {
    expect(overTheWire([])).toEqual([]);
  });

  it("unpack a real engine's batch to the engine's verdicts", async () => {
    const db = await memoryDb();
    const engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
    const topic = makeTopic();
    await db.topics.put(topic);
    await engine.observe(topic, hubExamples(topic.id));
    const links = [...FINANCE_ANCHORS, ...SPORT_ANCHORS, '天气 预报'].map((anchor, ref) => ({
      ref,
      url: `https://news.example.com/${ref}`,
      pageUrl: 'https://news.example.com/',
      anchor,
      before: '',
      after: '',
    }));
    const verdicts = await engine.scoreLinks(topic, links);
    expect(verdicts.some((v) => v.level > 0 && v.top.length > 0)).toBe(true);
    expect(verdicts.some((v) => v.level === 0)).toBe(true);
    expectSame(overTheWire(verdicts), verdicts);
    await engine.flush();
    db.close();
  });
});
