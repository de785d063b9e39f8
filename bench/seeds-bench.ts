/**
 * `npm run bench -- seeds`, or on its own: `node --import tsx bench/seeds-bench.ts`.
 *
 * The seeds' experiments (issue 16), reproduced on one web: the Debian documentation packages
 * served on loopback (`support/local-web.ts`, GIMP in GBK, an endless calendar on the portal),
 * the focus bench's four topics (`support/bench-topics.ts`), every crawl started from the portal
 * as a user's "crawl from here", 4,000 pages, delay 0, concurrency 2. One row per strategy:
 *
 *   bfs, best-first (seed 004's formula, topic keywords), nb as seed 000 built it (the link
 *   classifier alone), nb with seed 001's parts (future value, exploit/explore, online learning),
 *   lpe (seed 002, topic keywords), pagerank / ipagerank / rw (seed 003), and seed 004's
 *   extraction and expansion (best-first-extracted, topic keywords, the topic's knowledge base);
 *   any strategy the registry has that the table does not name gets a row of its own, and a row
 *   whose strategy is not registered on this branch prints "not built".
 *
 * nb's model is taught as the focus bench teaches it (collect 600 pages from the entry page and
 * the portal, train). rw and ipagerank take their topic from a topic directory (seed 003's topic
 * choice) holding two sample texts: the topic's keywords and its entry page's text, read through
 * the shared pipeline; their word similarity is co-occurrence in those samples (no synonym list
 * is given). bfs and pagerank do not depend on the topic: crawled once, counted for each topic.
 *
 * Counted from the server's side: harvest@k = responses with status 200 whose URL is on topic
 * among the first k responses the local web sent for the crawl (robots.txt not counted; a 404 or
 * a redirect is a fetch that found nothing), seed 002's harvest rate and seed 003's precision
 * ("采集准确率"); target recall@k = distinct on-topic pages sent within k ÷ on-topic pages of the
 * served graph, seed 002's target recall and seed 003's resource discovery rate ("资源发现率").
 * The ceiling row knows every page's distance to the topic (`support/served-graph.ts`).
 *
 * The crawls' stores go to tmpfs (/dev/shm) when there is one: a 4,000-page crawl spent ¾ of its
 * wall time in the store's fsyncs on this machine's disk (48 s against 14 s), and what is
 * measured here is the order of fetches, not their speed.
 *
 * Knobs: `LINKSCENT_SEEDS_TOPICS=calc,basic`, `LINKSCENT_SEEDS_ROWS=bfs,ipagerank`,
 * `LINKSCENT_SEEDS_PAGES=1000` (a shorter run; cuts past it are left out).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRATEGY_NAMES } from '../companion/crawl/strategies/index.ts';
import { decodeHtml } from '../companion/fetch/charset.ts';
import { segmentsFromHtml } from '../shared/segments/from-html.ts';
import { pageText } from '../shared/segments/page-text.ts';
import { pick, topicOnWeb, servedFetches, teach, TOPICS, type BenchTopic } from './support/bench-topics.ts';
import { ROOT, startLinkscent } from './support/cli-child.ts';
import { startLocalWeb, type LocalWeb } from './support/local-web.ts';
import { fmt, indent, loadLine, table } from './support/measure.ts';
import { ceilingOrder, servedGraph, type ServedGraph } from './support/served-graph.ts';

const WORK = join(ROOT, 'bench', 'data', 'seeds-bench');
const PAGES = Number(process.env.LINKSCENT_SEEDS_PAGES ?? 4000);
const CUTS = [500, 1000, 2000, 4000].filter((k) => k <= PAGES);
const CONCURRENCY = 2;

/** What a row's arguments are built from, per topic. */
interface TopicInputs {
  keywords: string;
  /** The topic's knowledge base as a file (`BenchTopic.knowledgeBase`). */
  knowledgeBase: string;
  topicDir: string;
  topicName: string;
  model: string;
}

interface Row {
  id: string;
  seed: string;
  name: string;
  /** The registry name; undefined: no strategy is named for it yet. */
  strategy?: string;
  /** The crawl's arguments after `--strategy`; `probe`: try the usual ones (a strategy this bench does not know). */
  args: ((t: TopicInputs) => string[]) | 'probe';
  /** The order does not depend on the topic: crawled once. */
  topicFree?: boolean;
  /** The paper's own comparison, and what it reported. */
  paper: string;
}

const NB_000 = ['--no-pattern-links', '--no-future', '--no-explore', '--no-online', '--no-host-budget'];
const ROWS: Row[] = [
  { id: 'bfs', seed: '—', name: 'bfs', strategy: 'bfs', args: () => [], topicFree: true, paper: 'baseline of 002 and 003' },
  { id: 'best-first', seed: '004 §5', name: 'best-first (keywords)', strategy: 'best-first', args: (t) => ['--topic', t.keywords], paper: "004's plain best-first: harvest 55.8 % (table 5-3); 002's baseline" },
  { id: 'nb-000', seed: '000', name: 'nb, link classifier alone', strategy: 'nb', args: (t) => ['--model', t.model, ...NB_000], paper: '000: harvest ≈ 90 % by a page classifier, 98 % by hand, over 50,000 pages' },
  { id: 'nb-001', seed: '001', name: 'nb + future value, explore, online', strategy: 'nb', args: (t) => ['--model', t.model, '--no-host-budget'], paper: '001: recall and precision over time, above immediate value alone (curves only)' },
  { id: 'lpe', seed: '002', name: 'LPE / JFE (keywords)', strategy: 'lpe', args: (t) => ['--topic', t.keywords], paper: '002: above BFS, best-first, anchor-only, context-only and block partition in harvest and target recall (curves; no figure in the text)' },
  { id: 'pagerank', seed: '003', name: 'PageRank', strategy: 'pagerank', args: () => [], topicFree: true, paper: "003's baseline: below IPageRank" },
  { id: 'ipagerank', seed: '003', name: 'IPageRank (RW-weighted)', strategy: 'ipagerank', args: (t) => ['--topic-dir', t.topicDir, '--topic-name', t.topicName], paper: '003: IPageRank > PageRank > BFS in precision and resource discovery at 500–4,000 pages (fig. 3; its figures are not in the text)' },
  { id: 'ipagerank-keywords', seed: '003', name: 'IPageRank, topic = keywords only', strategy: 'ipagerank', args: (t) => ['--topic', t.keywords], paper: '(this bench: the topic without the entry page\'s text)' },
  { id: 'rw', seed: '003', name: 'RW relevance alone', strategy: 'rw', args: (t) => ['--topic-dir', t.topicDir, '--topic-name', t.topicName], paper: "003: IPageRank's link weight; not compared alone" },
  // Seed 004's expansion: entity linking to CN-DBpedia in the thesis, the topic's knowledge-base
  // file here (`support/bench-topics.ts`).
  { id: 'seed-004', seed: '004', name: 'best-first + extraction + expansion', strategy: 'best-first-extracted', args: (t) => ['--topic', t.keywords, '--knowledge-base', t.knowledgeBase], paper: '004: harvest 63.1 % against 55.8 % for plain best-first (table 5-3)' },
];

/** The table's rows, then one for each registered strategy the table does not name. */
function allRows(): Row[] {
  const named = new Set(ROWS.map((row) => row.strategy));
  const extra = STRATEGY_NAMES.filter((name) => !named.has(name)).map(
    (name): Row => ({ id: name, seed: '?', name: `${name} (registered)`, strategy: name, args: 'probe', paper: '(a strategy this table does not name yet)' }),
  );
  return [...ROWS, ...extra];
}

interface Figures {
  harvest: (number | null)[];
  recall: (number | null)[];
  served: number;
}
type Outcome = { figures: Figures; seconds: number } | { missing: string };

function figures(order: readonly { url: string; status: number }[], isTarget: (url: string, status: number) => boolean, targetCount: number): Figures {
  const harvest: (number | null)[] = [];
  const recall: (number | null)[] = [];
  for (const k of CUTS) {
    if (order.length < k) {
      harvest.push(null);
      recall.push(null);
      continue;
    }
    const hits = order.slice(0, k).filter((r) => isTarget(r.url, r.status));
    harvest.push(hits.length / k);
    recall.push(targetCount === 0 ? 0 : new Set(hits.map((r) => r.url)).size / targetCount);
  }
  return { harvest, recall, served: order.length };
}

/** A crawl from the portal; the server's fetch order, or the one line that says why there is none. */
async function crawl(web: LocalWeb, out: string, args: string[], env: Record<string, string>): Promise<{ order: { url: string; status: number }[]; seconds: number } | { error: string; usage: boolean }> {
  web.resetCounts();
  const started = performance.now();
  const result = await startLinkscent(['crawl', web.portal, ...args, '--max-pages', String(PAGES), '--delay-ms', '0', '--concurrency', String(CONCURRENCY), '--out', out], env).done;
  if (result.code !== 0) return { error: result.stderr.trim().split('\n').at(-1) ?? `exit ${result.code}`, usage: result.code === 2 };
  return { order: servedFetches(web), seconds: (performance.now() - started) / 1000 };
}

/** The argument sets tried, in order, for a strategy this bench does not know. */
const PROBES: ((t: TopicInputs) => string[])[] = [(t) => ['--topic', t.keywords], () => [], (t) => ['--model', t.model], (t) => ['--model', t.model, '--topic', t.keywords]];

/** A topic directory of one topic: its keywords and its entry page's text, as sample texts. */
async function topicDirectory(topic: BenchTopic, entryUrl: string, dir: string): Promise<string> {
  const response = await fetch(entryUrl);
  if (!response.ok) throw new Error(`entry page ${entryUrl}: status ${response.status}`);
  const { text } = decodeHtml(new Uint8Array(await response.arrayBuffer()), response.headers.get('content-type') ?? '');
  const folder = join(dir, topic.id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'keywords.txt'), `${topic.keywords}\n`);
  writeFileSync(join(folder, 'entry.txt'), `${pageText(segmentsFromHtml(text, response.url)).join('\n')}\n`);
  return topic.id;
}

const pct = (x: number | null) => (x === null ? '–' : fmt(x, 3));

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'bench', 'data', 'sites', 'libreoffice-help-zh-cn'))) {
    throw new Error('bench/data/sites is missing: run bench/fetch-debian-docs.sh');
  }
  const benchStart = performance.now();
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, 'tmp'), { recursive: true });
  const crawlBase = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/linkscent-seeds-bench-') : mkdtempSync(join(WORK, 'crawls-'));
  // A bench stopped by a signal leaves no crawl store in memory (tmpfs) behind.
  const onSignal = (signal: NodeJS.Signals) => {
    rmSync(crawlBase, { recursive: true, force: true });
    process.kill(process.pid, signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, onSignal);
  const env = { TMPDIR: join(WORK, 'tmp') };
  const topics = pick(TOPICS, process.env.LINKSCENT_SEEDS_TOPICS);
  const rows = pick(allRows(), process.env.LINKSCENT_SEEDS_ROWS);
  const web = await startLocalWeb({ charsets: { 'gimp-help-zh-cn': 'gbk' }, calendar: true, log: true });
  const json: Record<string, unknown> = {};
  /** Row id → topic id → outcome. */
  const results = new Map<string, Map<string, Outcome>>(rows.map((row) => [row.id, new Map()]));
  const ceilings = new Map<string, Figures>();
  try {
    const graph: ServedGraph = await servedGraph(web);
    console.log(`seeds bench: ${web.sites.length} sites + portal ${web.portal} (GIMP served as GBK, an endless calendar on the portal); ${loadLine()}`);
    console.log(`served graph from the portal: ${graph.pages.size} pages, ${graph.edges.length} links (calendar cut at 300 pages); crawls of ${PAGES} pages from the portal, concurrency ${CONCURRENCY}`);
    if (graph.pages.size < PAGES) console.log(`the served graph holds fewer than ${PAGES} pages: cuts past ${graph.pages.size} show what is reachable`);
    console.log(`crawl stores in ${crawlBase}\n`);

    // The topic-free rows, crawled once.
    const orders = new Map<string, { order: { url: string; status: number }[]; seconds: number } | { missing: string }>();
    for (const row of rows.filter((r) => r.topicFree)) {
      const done = await crawl(web, join(crawlBase, row.id), ['--strategy', row.strategy!, ...(row.args as () => string[])()], env);
      orders.set(row.id, 'error' in done ? { missing: `failed: ${done.error}` } : done);
    }

    for (const topic of topics) {
      const { entry, onTopic, isTarget, targetSet, dir } = topicOnWeb(topic, web, graph, WORK);
      const knowledgeBase = join(dir, 'knowledge-base.txt');
      writeFileSync(knowledgeBase, `${topic.knowledgeBase.join('\n')}\n`);
      const inputs: TopicInputs = {
        keywords: topic.keywords,
        knowledgeBase,
        topicDir: join(WORK, 'topics'),
        topicName: await topicDirectory(topic, entry, join(WORK, 'topics')),
        model: join(dir, 'model.json'),
      };
      // A teaching that fails costs nb its rows on this topic, not the bench its other rows.
      let taught: { collected: string; trained: string } | undefined;
      let untaught: string | undefined;
      if (rows.some((row) => row.strategy === 'nb' || row.args === 'probe')) {
        try {
          taught = await teach(topic, [entry, web.portal], join(dir, 'labeled.jsonl'), inputs.model, env);
        } catch (error) {
          untaught = `failed: teaching: ${(error as Error).message.split('\n')[0]}`;
        }
      }
      ceilings.set(topic.id, figures(ceilingOrder(graph, web.portal, onTopic, PAGES).map((url) => ({ url, status: graph.pages.get(url)?.status ?? 0 })), isTarget, targetSet.size));

      for (const row of rows) {
        const byTopic = results.get(row.id)!;
        if (row.topicFree) {
          const done = orders.get(row.id)!;
          byTopic.set(topic.id, 'missing' in done ? done : { figures: figures(done.order, isTarget, targetSet.size), seconds: done.seconds });
          continue;
        }
        if (row.strategy === undefined || !STRATEGY_NAMES.includes(row.strategy)) {
          byTopic.set(topic.id, { missing: 'not built' });
          continue;
        }
        if (row.strategy === 'nb' && untaught !== undefined) {
          byTopic.set(topic.id, { missing: untaught });
          continue;
        }
        const out = join(crawlBase, `${topic.id}-${row.id}`);
        const tries = row.args === 'probe' ? PROBES : [row.args];
        let outcome: Outcome = { missing: 'not run' };
        for (const [i, args] of tries.entries()) {
          rmSync(out, { recursive: true, force: true });
          const done = await crawl(web, out, ['--strategy', row.strategy, ...args(inputs)], env);
          if ('order' in done) {
            outcome = { figures: figures(done.order, isTarget, targetSet.size), seconds: done.seconds };
            break;
          }
          outcome = { missing: `failed: ${done.error}` };
          if (!done.usage || i === tries.length - 1) break; // bad usage: try the next arguments
        }
        byTopic.set(topic.id, outcome);
      }

      const lines: string[][] = [['strategy', 'seed', ...CUTS.map((k) => `harvest@${k}`), ...CUTS.map((k) => `recall@${k}`), 'crawl s']];
      const ceiling = ceilings.get(topic.id)!;
      lines.push(['ceiling (knows every distance)', '—', ...ceiling.harvest.map(pct), ...ceiling.recall.map(pct), '']);
      for (const row of rows) {
        const outcome = results.get(row.id)!.get(topic.id)!;
        if ('missing' in outcome) lines.push([row.name, row.seed, outcome.missing, ...Array(CUTS.length * 2).fill(''), '']);
        else lines.push([row.name, row.seed, ...outcome.figures.harvest.map(pct), ...outcome.figures.recall.map(pct), fmt(outcome.seconds, 1)]);
      }
      console.log(`## ${topic.name}: on topic = ${topic.positive.join(' or ')}; ${targetSet.size} on-topic pages of ${graph.pages.size}`);
      if (untaught) console.log(`   nb not taught: ${untaught}`);
      if (taught) console.log(`   nb taught from entry + portal: ${taught.collected.replace(WORK + '/', '')}; ${taught.trained.replace(WORK + '/', '')}`);
      console.log(indent(table(lines)));
      console.log('');
      json[topic.id] = { targets: targetSet.size, ceiling, rows: Object.fromEntries(rows.map((row) => [row.id, results.get(row.id)!.get(topic.id)])) };
    }

    // The one table: each row's mean over the topics, with the paper's own comparison.
    const mean = (values: (number | null)[]) => (values.some((v) => v === null) ? null : values.reduce((a, b) => a! + b!, 0)! / values.length);
    const meanOf = (all: Figures[], pick: (f: Figures) => (number | null)[]) => CUTS.map((_, i) => mean(all.map((f) => pick(f)[i]!)));
    const lines: string[][] = [['strategy', 'seed', ...CUTS.map((k) => `harvest@${k}`), ...CUTS.map((k) => `recall@${k}`), "the paper's own comparison"]];
    const ceilingAll = [...ceilings.values()];
    lines.push(['ceiling (knows every distance)', '—', ...meanOf(ceilingAll, (f) => f.harvest).map(pct), ...meanOf(ceilingAll, (f) => f.recall).map(pct), '']);
    for (const row of rows) {
      const outcomes = [...results.get(row.id)!.values()];
      const missing = outcomes.find((o): o is { missing: string } => 'missing' in o);
      if (missing) {
        lines.push([row.name, row.seed, missing.missing, ...Array(CUTS.length * 2 - 1).fill(''), row.paper]);
        continue;
      }
      const all = outcomes.map((o) => (o as { figures: Figures }).figures);
      lines.push([row.name, row.seed, ...meanOf(all, (f) => f.harvest).map(pct), ...meanOf(all, (f) => f.recall).map(pct), row.paper]);
    }
    console.log(`all topics (${topics.map((t) => t.id).join(', ')}): mean harvest rate and target recall, crawls of ${PAGES} pages from the portal`);
    console.log(indent(table(lines, [lines[0]!.length - 1])));
    console.log(`\n${loadLine()}; bench wall time ${fmt((performance.now() - benchStart) / 60_000, 1)} min; work files in bench/data/seeds-bench/`);
  } finally {
    await web.close();
    rmSync(join(WORK, 'tmp'), { recursive: true, force: true });
    rmSync(crawlBase, { recursive: true, force: true });
  }
  const jsonPath = process.env.LINKSCENT_BENCH_JSON;
  if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(`seeds bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
