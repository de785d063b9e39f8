/**
 * `npm run bench -- focus`, or on its own: `node --import tsx bench/focus-bench.ts`.
 *
 * Focus from a distance (issue 11): a crawl started a few hops from its topic, on a portal, as a
 * user's "crawl from here" on whatever page they are on. The web is the Debian documentation
 * packages served on loopback (`support/local-web.ts`), with what the real web adds: GIMP's
 * manual is served in GBK, and the portal links an endless events calendar.
 *
 * Per topic (four topics on three sites; one English, one GBK-encoded):
 *   1. teach as a new user would: `collect` from the topic's entry page and the portal, 600
 *      pages, links into the topic's pages positive (its URL patterns); `train` with the
 *      defaults and those patterns. Then again with the teaching started on the entry page alone.
 *   2. crawl 500 pages from the portal alone (delay 0, concurrency 2) with each strategy:
 *      bfs (the floor), best-first (seed 004, topic keywords), nb as of before issue 11 (every
 *      new part off), nb with each part added in turn, nb as it ships, and nb as it ships but
 *      for the patterns' judgement of links (what the classifiers do alone).
 *   3. the ceiling: a crawler that knows every page's label and its distance to the topic on the
 *      served graph (`support/served-graph.ts`): nearest first, among URLs already discovered.
 * Counted from the server's side: harvest@k = responses with status 200 whose URL is on topic
 * among the first k responses the local web sent for the crawl (robots.txt not counted; a 404
 * or a redirect is a fetch that found nothing); target recall = distinct on-topic pages sent
 * within 500 ÷ on-topic pages of the served graph. Each strategy's ratio to the ceiling is shown.
 *
 * The topic patterns define "on topic" for the teaching, for the judge and for the count alike
 * (seed 000 §3.2.2's method). Nothing here is tuned per topic: every topic gets the same commands.
 * `LINKSCENT_FOCUS_TOPICS=calc,basic` runs some topics only; `LINKSCENT_FOCUS_ROWS=bfs,nb` some rows.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pick, topicOnWeb, servedFetches, teach, TOPICS } from './support/bench-topics.ts';
import { linkscent, ROOT } from './support/cli-child.ts';
import { startLocalWeb } from './support/local-web.ts';
import { fmt, indent, loadLine, table } from './support/measure.ts';
import { ceilingOrder, servedGraph, type ServedGraph } from './support/served-graph.ts';

const WORK = join(ROOT, 'bench', 'data', 'focus-bench');
const CRAWL_PAGES = 500;
const CUTS = [100, 250, 500];
const CONCURRENCY = 2;

/** A crawl row of the table: the `crawl` arguments after the model. */
interface Row {
  id: string;
  name: string;
  /** Which teaching's model it uses, or none. */
  teaching: 'portal' | 'entry' | null;
  args: string[];
}

const ALL_OFF = ['--no-pattern-links', '--no-future', '--no-explore', '--no-online', '--no-host-budget'];
const ROWS: Row[] = [
  { id: 'bfs', name: 'bfs (floor)', teaching: null, args: ['--strategy', 'bfs'] },
  { id: 'best-first', name: 'best-first (seed 004)', teaching: null, args: ['--strategy', 'best-first'] },
  { id: 'nb-before', name: 'nb before issue 11', teaching: 'portal', args: ALL_OFF },
  { id: 'nb-patterns', name: '+ links judged by the patterns', teaching: 'portal', args: ['--no-future', '--no-explore', '--no-online', '--no-host-budget'] },
  { id: 'nb-future', name: '+ future value', teaching: 'portal', args: ['--no-explore', '--no-online', '--no-host-budget'] },
  { id: 'nb-explore', name: '+ exploit/explore', teaching: 'portal', args: ['--no-online', '--no-host-budget'] },
  { id: 'nb-online', name: '+ online learning', teaching: 'portal', args: ['--no-host-budget'] },
  { id: 'nb', name: '+ host budget = nb', teaching: 'portal', args: [] },
  { id: 'nb-model-only', name: 'nb, links not judged by the patterns', teaching: 'portal', args: ['--no-pattern-links'] },
  { id: 'entry-nb-before', name: 'nb before issue 11', teaching: 'entry', args: ALL_OFF },
  { id: 'entry-nb', name: 'nb', teaching: 'entry', args: [] },
];

interface Figures {
  harvest: (number | null)[];
  recall: number;
}

/** Harvest at each cut and target recall of a fetch order (URL, status). */
function figures(order: readonly { url: string; status: number }[], isTarget: (url: string, status: number) => boolean, targetCount: number): Figures {
  const harvest = CUTS.map((k) => (order.length < k ? null : order.slice(0, k).filter((r) => isTarget(r.url, r.status)).length / k));
  const found = new Set(order.slice(0, CRAWL_PAGES).filter((r) => isTarget(r.url, r.status)).map((r) => r.url));
  return { harvest, recall: targetCount === 0 ? 0 : found.size / targetCount };
}

const pct = (x: number | null) => (x === null ? '–' : fmt(x, 3));

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'bench', 'data', 'sites', 'libreoffice-help-zh-cn'))) {
    throw new Error('bench/data/sites is missing: run bench/fetch-debian-docs.sh');
  }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, 'tmp'), { recursive: true });
  const env = { TMPDIR: join(WORK, 'tmp') };
  const topics = pick(TOPICS, process.env.LINKSCENT_FOCUS_TOPICS);
  const rows = pick(ROWS, process.env.LINKSCENT_FOCUS_ROWS);
  const web = await startLocalWeb({ charsets: { 'gimp-help-zh-cn': 'gbk' }, calendar: true, log: true });
  const json: Record<string, unknown> = {};
  const summary: string[][] = [['topic', 'targets', 'ceiling @250', 'bfs @250', 'nb @250', 'nb ÷ ceiling @250', 'nb ≥ bfs at every cut']];
  try {
    const graph: ServedGraph = await servedGraph(web);
    console.log(`focus bench: ${web.sites.length} sites + portal ${web.portal} (GIMP served as GBK, an endless calendar on the portal); ${loadLine()}`);
    console.log(`served graph from the portal: ${graph.pages.size} pages, ${graph.edges.length} links (calendar cut at 300 pages)\n`);

    for (const topic of topics) {
      const { entry, onTopic, isTarget, targetSet, dir } = topicOnWeb(topic, web, graph, WORK);

      // 1. teaching, both ways
      const models: Record<'portal' | 'entry', string> = { portal: join(dir, 'model-portal.json'), entry: join(dir, 'model-entry.json') };
      const taught: string[] = [];
      for (const [teaching, seeds] of [
        ['portal', [entry, web.portal]],
        ['entry', [entry]],
      ] as const) {
        if (!rows.some((row) => row.teaching === teaching)) continue;
        const { collected, trained } = await teach(topic, seeds, join(dir, `labeled-${teaching}.jsonl`), models[teaching], env);
        taught.push(`${teaching === 'portal' ? 'entry + portal' : 'entry alone'}: ${collected.replace(WORK + '/', '')}; ${trained.replace(WORK + '/', '')}`);
      }

      // 2. the ceiling, computed; the strategies, crawled
      const ceiling = figures(
        ceilingOrder(graph, web.portal, onTopic, CRAWL_PAGES).map((url) => ({ url, status: graph.pages.get(url)?.status ?? 0 })),
        isTarget,
        targetSet.size,
      );
      const results = new Map<string, Figures>();
      for (const row of rows) {
        const out = join(dir, `crawl-${row.id}`);
        const strategyArgs = row.teaching === null ? row.args : ['--strategy', 'nb', '--model', models[row.teaching], ...row.args];
        const keywords = row.id === 'best-first' ? ['--topic', topic.keywords] : [];
        web.resetCounts();
        await linkscent(
          ['crawl', web.portal, ...strategyArgs, ...keywords, '--max-pages', String(CRAWL_PAGES), '--delay-ms', '0', '--concurrency', String(CONCURRENCY), '--out', out],
          env,
        );
        results.set(row.id, figures(servedFetches(web), isTarget, targetSet.size));
      }

      const ratio = (f: Figures) => f.harvest.map((h, i) => (h === null || !ceiling.harvest[i] ? '–' : fmt(h / ceiling.harvest[i]!, 2))).join(' / ');
      const line = (name: string, f: Figures) => [name, ...f.harvest.map(pct), fmt(f.recall, 3), ratio(f)];
      const lines: string[][] = [['strategy (crawl from the portal)', ...CUTS.map((k) => `harvest@${k}`), 'target recall@500', 'ratio to ceiling @100/250/500']];
      lines.push(line('ceiling (knows every distance)', ceiling));
      for (const row of rows) {
        const f = results.get(row.id)!;
        lines.push(line(row.teaching === 'entry' ? `${row.name} (taught from entry alone)` : row.name, f));
      }
      console.log(`## ${topic.name}: on topic = ${topic.positive.join(' or ')}; ${targetSet.size} on-topic pages of ${graph.pages.size}`);
      for (const t of taught) console.log(`   taught from ${t}`);
      console.log(indent(table(lines)));
      console.log('');

      const nb = results.get('nb');
      const bfs = results.get('bfs');
      if (nb && bfs) {
        const atLeastBfs = nb.harvest.every((h, i) => h === null || bfs.harvest[i] === null || h >= bfs.harvest[i]!);
        summary.push([
          topic.id,
          String(targetSet.size),
          pct(ceiling.harvest[1]!),
          pct(bfs.harvest[1]!),
          pct(nb.harvest[1]!),
          ceiling.harvest[1] ? fmt(nb.harvest[1]! / ceiling.harvest[1]!, 3) : '–',
          atLeastBfs ? 'yes' : 'NO',
        ]);
      }
      json[topic.id] = { targets: targetSet.size, ceiling, rows: Object.fromEntries(results) };
    }
    if (summary.length > 1) {
      console.log('summary (goal: nb ÷ ceiling ≥ 0.85 at 250 pages on every topic, and nb never below bfs):');
      console.log(indent(table(summary)));
    }
    console.log(`\n${loadLine()}; work files in bench/data/focus-bench/`);
  } finally {
    await web.close();
    rmSync(join(WORK, 'tmp'), { recursive: true, force: true });
  }
  const jsonPath = process.env.LINKSCENT_BENCH_JSON;
  if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(`focus bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
