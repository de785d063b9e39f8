/**
 * One model, one scorer, both sides: a topic trained in the extension's worker, exported as the
 * model file, and loaded by the companion's crawl scorer gives every link of the same page the
 * same P(+) and the same explanation as the worker does. Both halves score through the shared
 * `LinkScorer` (the worker's engine over pre-extracted contexts, the crawl over the page). The extension's side starts from a live DOM (happy-dom, the DOM
 * producer), the companion's from the HTML text (htmlparser2, the HTML producer), as they do for
 * real; each side has its own tokenizer instance over the real jieba dictionary.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLinkScorer } from '../../../companion/model/link-model-file.ts';
import { loadNodeTokenizer } from '../../../companion/platform/jieba-node.ts';
import { createDexieRepository } from '../../../extension/worker/dexie-repository.ts';
import { createEngine, type Engine } from '../../../extension/worker/engine.ts';
import { EXPLAIN_TOP } from '../../../extension/worker/verdicts.ts';
import { extractContexts } from '../../../shared/contexts/index.ts';
import type { LinkScentDb } from '../../../extension/storage/database.ts';
import type { Topic } from '../../../shared/model/types.ts';
import { segmentsFromDom, segmentsFromHtml } from '../../../shared/segments/index.ts';
import { withDocument } from '../../shared/segments/dom-support.ts';
import { hubExamples, memoryDb, tokenizer, topic as makeTopic } from '../support/memory-db.ts';

const pageUrl = 'https://portal.example.net/today.html';
const html = `<!doctype html><html><head><meta charset="utf-8"><title>今日</title></head><body>
  <h1>今日要闻</h1>
  <div class="news"><p>市场消息：<a href="https://finance.example.org/a">基金 投资 收益 创新高</a>，分析师称股票行情向好。</p>
  <p><a href="/sport/1">足球 联赛 冠军 诞生</a> 球队 教练 赛后发言</p></div>
  <ul><li><a href="https://finance.example.org/b">银行 利率 贷款</a></li><li><a href="/weather">天气 预报</a></li>
  <li><a href="https://sport.example.org/c">篮球 比赛 进球</a></li></ul>
  <p>更多内容 <a href="/more">更多</a> 请见专题页面。</p>
</body></html>`;

let db: LinkScentDb;
let engine: Engine;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkscent-cross-'));
  db = await memoryDb();
  engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 5 });
});
afterAll(async () => {
  await engine.flush();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['multinomial', 'bernoulli'] as const)('the same page scored on both sides (%s)', (form) => {
  it('gives every link the same P(+) in the worker and in the companion’s crawl scorer', async () => {
    const topic: Topic = makeTopic({ id: `finance-${form}`, form, lexicon: ['股票', '基金'] });
    await db.topics.put(topic);
    await engine.observe(topic, hubExamples(topic.id));

    // The extension: the DOM producer, the topic's window, the worker's verdicts.
    const contexts = await withDocument(html, pageUrl, (document) =>
      extractContexts(segmentsFromDom(document, pageUrl), { window: topic.window }),
    );
    const links = contexts.map((context, ref) => ({ ...context, ref }));
    const verdicts = await engine.scoreLinks(topic, links);
    // The Worker's text cache keeps a text from its second sighting (worker-tokenizer.ts): the
    // page scored twice more gives the same verdicts from texts new, admitted, then cached.
    expect(await engine.scoreLinks(topic, links)).toEqual(verdicts);
    expect(await engine.scoreLinks(topic, links)).toEqual(verdicts);
    await engine.flush();

    // The companion: the exported file, the HTML producer, the nb strategy's scorer.
    const file = join(dir, `${form}.json`);
    writeFileSync(file, await engine.exportDatabase());
    const { scorer } = await loadLinkScorer(file, loadNodeTokenizer(), topic.id);
    const scored = scorer.scorePage(segmentsFromHtml(html, pageUrl));

    expect(scored.map(({ url, anchor, before, after }) => ({ url, anchor, before, after }))).toEqual(
      contexts.map(({ url, anchor, before, after }) => ({ url, anchor, before, after })),
    );
    expect(scored).toHaveLength(6);
    expect(scored.map((link) => link.score.p)).toEqual(verdicts.map((verdict) => verdict.p));
    // The crawl asks for no explanation; at the worker's depth the companion's scorer gives the
    // same one for every link the worker lights (an unlit link's verdict carries none).
    expect(verdicts.some((verdict) => verdict.level > 0)).toBe(true);
    expect(scored.map((link, i) => (verdicts[i]!.level > 0 ? scorer.score(link, EXPLAIN_TOP).top : []))).toEqual(verdicts.map((verdict) => verdict.top));
    // Not a vacuous equality: the model separates the page's finance and sport links.
    const p = (url: string) => verdicts[contexts.findIndex((context) => context.url === url)]!.p;
    expect(p('https://finance.example.org/b')).toBeGreaterThan(p('https://sport.example.org/c'));
  });
});
