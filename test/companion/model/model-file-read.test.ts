/**
 * A model file read in pieces (`companion/model/model-file-read.ts`), on real files several
 * pieces long whose Chinese characters fall across the pieces' edges: the fingerprint is the
 * SHA-256 of the bytes, the whole text is the file's, and a read without the examples gives what
 * skimming the whole text gives; a crawl's load (`loadLinkModel`) gets the same model either way.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadLinkModel } from '../../../companion/model/link-model-file.ts';
import { READ_PIECE, readModelFile } from '../../../companion/model/model-file-read.ts';
import { DecodedModels } from '../../../companion/service/model-registry.ts';
import { exampleRows } from '../../../shared/model/example-key.ts';
import { encodeModelFile } from '../../../shared/model/model-file.ts';
import { skimExamples } from '../../../shared/model/model-file-skim.ts';
import { NaiveBayes } from '../../../shared/model/naive-bayes.ts';
import type { LabeledLink, Topic } from '../../../shared/model/types.ts';
import { tempDir } from '../crawl/crawl-test-helpers.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const TOPIC: Topic = { id: 'topic-read', name: 'read', lexicon: [], positive: [], negative: [], threshold: 0.5, featureGroup: 2, form: 'bernoulli', window: 80 };

/** A model file of `n` examples (about 250 bytes each, a third of them in three-byte characters). */
function modelFile(n: number): string {
  const { dir, cleanup } = tempDir('linkscent-model-read-');
  cleanups.push(cleanup);
  const nb = new NaiveBayes({ form: 'bernoulli' });
  nb.add(new Map([['a:股票', 1]]), 1);
  nb.add(new Map([['a:足球', 1]]), 0);
  const links: LabeledLink[] = Array.from({ length: n }, (_, i) => ({
    url: `https://example.com/${i}`,
    pageUrl: 'https://example.com/',
    anchor: `第 ${i} 条 股票 行情`,
    before: '焦点爬虫的待抓取队列随每一页增长',
    after: i % 7 === 0 ? '"引号" \\ ]}' : '更多',
    label: i % 2 === 0 ? 1 : 0,
    source: 'pattern',
    topic: TOPIC.id,
  }));
  const { header, features } = nb.toRows(TOPIC.id);
  const path = join(dir, 'model.json');
  const examples = exampleRows(links, 1_700_000_000_000).map((row, i) => ({ ...row, id: i + 1 }));
  writeFileSync(path, encodeModelFile({ topics: [TOPIC], models: [header], features, examples }));
  return path;
}

describe('readModelFile', () => {
  it('gives the SHA-256 of the bytes and the whole text, or the text without the examples', async () => {
    const path = modelFile(2000);
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(5 * READ_PIECE);
    const sha = createHash('sha256').update(bytes).digest('hex');

    const whole = await readModelFile(path, { examples: true });
    expect(whole.fingerprint).toBe(sha);
    expect(whole.skimmed).toBeUndefined();
    expect(whole.text()).toBe(bytes.toString('utf8'));

    const skimmed = await readModelFile(path, { examples: false });
    expect(skimmed.fingerprint).toBe(sha);
    expect(skimmed.skimmed).toStrictEqual(skimExamples(bytes.toString('utf8')));
    expect(skimmed.skimmed!.examples).toBe(2000);
    expect(skimmed.text()).toBe(bytes.toString('utf8'));
  });

  it('a crawl loads the same model, fingerprint and topic without the examples as the service does with them', async () => {
    const path = modelFile(300);
    const fresh = await loadLinkModel(path);
    const service = await loadLinkModel(path, undefined, new DecodedModels());
    expect(fresh.fingerprint).toBe(service.fingerprint);
    expect(fresh.topic).toStrictEqual(service.topic);
    // `toRows` stamps each copy with the time it was made (`savedAt`): two calls can fall in
    // different milliseconds, and only the counts are the model.
    const rows = (model: NaiveBayes) => {
      const { header, features } = model.toRows(TOPIC.id);
      return { header: { ...header, savedAt: 0 }, features };
    };
    expect(rows(fresh.model)).toStrictEqual(rows(service.model));
  });
});
