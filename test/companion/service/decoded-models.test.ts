/**
 * DecodedModels: a model file decoded once per service however many crawls start with it, and
 * model loads run one at a time. A real model file, written and read from a temporary home.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLinkModel } from '../../../companion/model/link-model-file.ts';
import { DecodedModels } from '../../../companion/service/model-registry.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { tempHome, writeFinanceModel } from './service-helpers.ts';

let site: SiteServer;
let home: ReturnType<typeof tempHome>;
let path: string;

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 5 });
  home = tempHome();
  path = join(home.dir, 'model.json');
  await writeFinanceModel(path, site);
}, 60_000); // jieba's dictionary, on a busy machine
afterAll(async () => {
  await site?.close();
  home?.cleanup();
});

describe('DecodedModels', () => {
  it('decodes a file once for every load of it, and each load still gets classifiers of its own', { timeout: 30_000 }, async () => {
    const decoded = new DecodedModels();
    const loads = await Promise.all(Array.from({ length: 5 }, () => decoded.serial(() => loadLinkModel(path, undefined, decoded))));
    // One decode: every load's topic is the very object the one decoded content holds.
    expect(new Set(loads.map((l) => l.topic)).size).toBe(1);
    const text = readFileSync(path, 'utf8');
    expect(decoded.decodeText(text).topics[0]).toBe(loads[0]!.topic); // keyed by the SHA-256 of the text, as of the file's bytes
    await expect(loadLinkModel(path).then((l) => l.topic)).resolves.not.toBe(loads[0]!.topic); // the command line's own decode
    expect(new Set(loads.map((l) => l.model)).size).toBe(5);
    // Forks of one built model: online learning changes one crawl's model only.
    const vocabulary = loads[1]!.model.vocabularySize;
    loads[0]!.model.add(new Map([['w:never-in-the-file', 1]]), 1);
    expect(loads[0]!.model.vocabularySize).toBe(vocabulary + 1);
    expect(loads[1]!.model.vocabularySize).toBe(vocabulary);
    const features = (load: (typeof loads)[number]) => load.model.toRows('t').features;
    expect(features(loads[1]!)).toEqual(features(loads[2]!));
    expect((await decoded.serial(() => loadLinkModel(path, undefined, decoded))).model.vocabularySize).toBe(vocabulary);
  });

  it('keeps the two files used last', () => {
    const decoded = new DecodedModels(2);
    const text = readFileSync(path, 'utf8');
    const first = decoded.decodeText(text, 'a');
    decoded.decodeText(text, 'b');
    expect(decoded.decodeText(text, 'a')).toBe(first);
    decoded.decodeText(text, 'c'); // b is the oldest now
    expect(decoded.decodeText(text, 'a')).toBe(first);
    expect(decoded.decodeText(text, 'b')).not.toBe(first);
  });

  it('runs loads one at a time, in the order asked', async () => {
    const decoded = new DecodedModels();
    const log: string[] = [];
    const load = (name: string, ms: number) => decoded.serial(async () => {
      log.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`${name} end`);
    });
    const failing = decoded.serial(async () => {
      throw new Error('bad file');
    });
    await Promise.all([load('a', 30), failing.catch(() => undefined), load('b', 1)]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });
});
