/**
 * The scoring Worker's `scoreLinks` in Node, for profiling and A/B (`node --import tsx
 * bench/extension/worker-node.ts`): the extension's own engine (extension/worker/engine.ts) over
 * a fake-indexeddb, the real jieba-wasm dictionary (Node build), a topic trained on the Debian
 * documentation as the extension bench trains it (links into its on- and off-topic packages,
 * labelled by pattern), and the extension bench's probe: 5,000-link pages, salted so that every
 * text is new to the tokenizer, scored in calls of 100 with one structured clone each way
 * (what comlink's hop costs the Worker). Prints contexts/s per pass and a digest of every verdict.
 *
 * Environment: LINKSCENT_WORKER_PAGES (pages, default 4), LINKSCENT_WORKER_DUMP (write every
 * verdict as JSON lines there, for a parity diff against another branch), LINKSCENT_WORKER_WARM=0
 * (no second pass over the same texts: a profile of new texts alone).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createDexieRepository } from '../../extension/worker/dexie-repository.ts';
import { createEngine } from '../../extension/worker/engine.ts';
import type { LinkVerdict, PageLink } from '../../extension/messages/page-links.ts';
import { extractContexts } from '../../shared/contexts/extract-contexts.ts';
import { NEW_TOPIC_DEFAULTS, TOPIC_DEFAULTS } from '../../shared/model/topic-defaults.ts';
import type { LabeledLink, Topic } from '../../shared/model/types.ts';
import { segmentsFromHtml } from '../../shared/segments/from-html.ts';
import { memoryDb } from '../../test/extension/support/memory-db.ts';
import { createWorkerTokenizer } from '../../extension/worker/worker-tokenizer.ts';
import { cut } from 'jieba-wasm';
import { benchPage, distinctContexts, pageContexts } from './bench-page.ts';
import { loadDocCorpus, OFF_TOPIC_SITES, ON_TOPIC_SITES, SITES_DIR } from './doc-pages.ts';
import { probeLinks } from './worker-probe.ts';

const PAGES = Number(process.env['LINKSCENT_WORKER_PAGES'] ?? 4);
const DUMP = process.env['LINKSCENT_WORKER_DUMP'];
const WARM = process.env['LINKSCENT_WORKER_WARM'] !== '0';
const ORIGIN = 'http://127.0.0.1:8123';
const BATCH = 100;

const topic: Topic = {
  id: 'bench',
  name: 'Debian 打包与系统',
  lexicon: [],
  positive: ON_TOPIC_SITES.map((site) => `${ORIGIN}/site/${site}/*`),
  negative: OFF_TOPIC_SITES.map((site) => `${ORIGIN}/site/${site}/*`),
  threshold: TOPIC_DEFAULTS.threshold,
  featureGroup: TOPIC_DEFAULTS.featureGroup,
  form: TOPIC_DEFAULTS.form,
  window: TOPIC_DEFAULTS.window,
  ...NEW_TOPIC_DEFAULTS,
} as Topic;

// Built as the Worker builds it (extension/worker/worker-tokenizer.ts): jieba with HMM.
const tokenizer = createWorkerTokenizer((text) => cut(text, true), JSON.parse(process.env['LINKSCENT_WORKER_TOKENIZER'] ?? '{}'));
cut('预热词典', true);
const corpus = loadDocCorpus();
const db = await memoryDb();
await db.topics.put(topic);
const engine = createEngine({ tokenizer, repository: createDexieRepository(db), saveDelayMs: 60_000 });

// Training: every link of the training pages that leads into an on- or off-topic package.
const trainStart = performance.now();
let examples = 0;
for (const path of corpus.trainingPaths) {
  const pageUrl = `${ORIGIN}${path}`;
  const html = readFileSync(join(SITES_DIR, path.replace(/^\/site\//, '')), 'utf8');
  const labeled: LabeledLink[] = [];
  for (const context of extractContexts(segmentsFromHtml(html, pageUrl), { window: topic.window })) {
    const on = ON_TOPIC_SITES.some((site) => context.url.startsWith(`${ORIGIN}/site/${site}/`));
    const off = OFF_TOPIC_SITES.some((site) => context.url.startsWith(`${ORIGIN}/site/${site}/`));
    if (on === off) continue;
    labeled.push({ ...context, label: on ? 1 : 0, source: 'pattern', topic: topic.id });
  }
  examples += (await engine.observe(topic, labeled, { url: pageUrl, title: '' })).added;
}
await engine.flush();
console.log(`trained on ${corpus.trainingPaths.length} pages, ${examples} examples, ${((performance.now() - trainStart) / 1000).toFixed(1)} s`);

const pool = distinctContexts(corpus.contexts);
const digest = createHash('sha256');
const dump: string[] = [];

/** One pass: every link in calls of `BATCH`, cloned in and out as comlink does. */
async function pass(links: PageLink[]): Promise<{ rate: number; cpuRate: number; verdicts: LinkVerdict[] }> {
  const verdicts: LinkVerdict[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < links.length; i += BATCH) {
    const batch = structuredClone(links.slice(i, i + BATCH));
    verdicts.push(...structuredClone(await engine.scoreLinks(structuredClone(topic), batch)));
  }
  const used = process.cpuUsage(cpu);
  return { rate: links.length / ((performance.now() - start) / 1000), cpuRate: links.length / ((used.user + used.system) / 1e6), verdicts };
}

const cold: number[] = [];
const coldCpu: number[] = [];
const warm: number[] = [];
for (let run = 0; run <= PAGES; run++) {
  const url = `${ORIGIN}/r/${run}/index.html`;
  const salted = probeLinks(pageContexts(benchPage(pool, 5000, run).html, url), `bench${run}`);
  const first = await pass(salted);
  const again = WARM ? await pass(salted) : first;
  if (run === 0) continue; // warm-up (the bench's first probe is dropped too)
  cold.push(first.rate);
  coldCpu.push(first.cpuRate);
  warm.push(again.rate);
  for (const verdict of first.verdicts) {
    const line = JSON.stringify(verdict);
    digest.update(line);
    if (DUMP) dump.push(line);
  }
}
if (DUMP) writeFileSync(DUMP, `${dump.join('\n')}\n`);
const fmt = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' ');
console.log(`cold (new texts, calls of ${BATCH}): ${fmt(cold)} contexts/s`);
console.log(`cold, per CPU second:           ${fmt(coldCpu)} contexts/s`);
console.log(`warm (same texts again):        ${fmt(warm)} contexts/s`);
console.log(`verdicts digest ${digest.digest('hex').slice(0, 16)}; ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
process.exit(0);
