/**
 * `npm run bench -- records`, or on its own: `node --import tsx bench/records-bench.ts`.
 *
 * Issue 13's done-criteria at the scale the tests do not reach, LinkScent driven through its
 * command line as a child (`support/cli-child.ts`, the loopback guard preloaded), every crawl kept
 * on loopback by `--scope seed-hosts`:
 *
 *   1. WARC at 500 pages. `crawl --warc --strategy bfs --max-pages 500` of the real corpus
 *      (`support/local-web.ts`, seeded with the portal and every site's hub), then every WARC
 *      file read back twice: by webrecorder's warcio (npm, the library that wrote them) and by
 *      the minimal reader of our own (`tools/minimal-warc.ts`: gzip members, WARC headers by
 *      hand, Content-Length). Counted from the side that cannot flatter: pages.jsonl's pages read
 *      in full against response records (each exactly once), and the web server's own log of
 *      the HTML it sent against the response records; every payload digest recomputed here with
 *      node:crypto from each reader's bytes, and compared with the SHA-256 of the body the server
 *      sent; the two readers compared record by record.
 *   2. Stop at the budget. `crawl --warc --max-pages 2000` of a synthetic loopback site of
 *      2,302 pages (`support/stall-site.ts`) whose home page links first to a page that never
 *      answers. From outside the crawler: the time the server finished its last page, the time
 *      the process exited (the goal: ≤ 2 s apart), the pages served, the stalled URL's state in
 *      the crawl store (queued: a `--resume` will ask for it again), and the WARC's response
 *      records (2,000 URLs, each once; none for the stalled page).
 *   3. Ctrl-C. The same crawl, sent SIGINT once the server has sent 1,000 pages: signal to exit,
 *      the pages the server still finished after the signal, the store's states; then
 *      `--resume` to 2,000 pages, which must end with every page once, in pages.jsonl and in the
 *      WARC, and the stalled URL still queued.
 *
 * A crawl that does not exit within `EXIT_GUARD_MS` is killed and said to have failed to exit;
 * the bench goes on. Work files go under bench/data/records-bench/ (removed at the start).
 * Figures depend on the machine and its load, printed at the start and the end.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { WARCParser } from 'warcio';
import { digestMatches, readMinimalWarc } from '../tools/minimal-warc.ts';
import { linkscent as runLinkscent, startLinkscent, type ChildResult, type StartedChild } from './support/cli-child.ts';
import { startLocalWeb, type ServedResponse } from './support/local-web.ts';
import { fmt, indent, loadLine, table } from './support/measure.ts';
import { readPages } from './support/pages-file.ts';
import { STALL_PATH, startStallSite, type StallSite } from './support/stall-site.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(ROOT, 'bench', 'data', 'records-bench');
const CHILD_ENV = { TMPDIR: join(WORK, 'tmp') };

const WARC_PAGES = 500;
const BUDGET_PAGES = 2000;
const SIGINT_AFTER = 1000;
/** The goal of issue 13: exit within this of the last page. */
const EXIT_GOAL_MS = 2000;
/** A crawl still running this long is killed (a hang is a finding, not a reason to hang the bench). */
const EXIT_GUARD_MS = 180_000;

const ms = (x: number) => `${fmt(x, 4)} ms`;
const mbOf = (bytes: number) => `${fmt(bytes / 1e6, 4)} MB`;


/** URL → state in the crawl store's frontier, read-only after the crawl. */
function frontierStates(out: string): Map<string, string> {
  const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT url, state FROM frontier').all() as { url: string; state: string }[];
    return new Map(rows.map((row) => [row.url, row.state]));
  } finally {
    db.close();
  }
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

const listCounts = (counts: Map<string, number>) =>
  [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name, n]) => `${name} ${n}`).join(', ') || 'none';

// ---------------------------------------------------------------------------------------------
// 1. WARC at 500 pages

/** One record as a reader saw it; digests are recomputed here, not taken from either reader. */
interface ReadRecord {
  type: string;
  uri: string;
  id: string;
  contentLength: number;
  declaredPayloadDigest: string | undefined;
  /** The payload (the block after the HTTP head for request and response, else the block). */
  payload: Buffer;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readWithWarcio(file: string): Promise<ReadRecord[]> {
  const records: ReadRecord[] = [];
  for await (const record of new WARCParser(createReadStream(file))) {
    // readFully(false): the raw payload, Content-Encoding kept, as the digest covers it.
    const payload = Buffer.from(await record.readFully(false));
    records.push({
      type: record.warcType,
      uri: record.warcTargetURI ?? '',
      id: record.warcHeader('WARC-Record-ID') ?? '',
      contentLength: record.warcContentLength,
      declaredPayloadDigest: record.warcPayloadDigest ?? undefined,
      payload,
    });
  }
  return records;
}

function readWithMinimal(file: string): ReadRecord[] {
  return readMinimalWarc(readFileSync(file)).map((record) => ({
    type: record.headers.get('warc-type') ?? '',
    uri: record.headers.get('warc-target-uri') ?? '',
    id: record.headers.get('warc-record-id') ?? '',
    contentLength: Number(record.headers.get('content-length')),
    declaredPayloadDigest: record.headers.get('warc-payload-digest'),
    payload: record.payload,
  }));
}

/** What two readers must agree on for one record. */
const recordKey = (r: ReadRecord) => `${r.type} ${r.uri} ${r.id} ${r.contentLength} ${r.declaredPayloadDigest ?? '-'} ${sha256(r.payload)}`;

interface ReaderRun {
  records: ReadRecord[][];
  ms: number;
  /** file → why the reader refused it. */
  refused: Map<string, string>;
}

async function readAll(files: string[], read: (file: string) => Promise<ReadRecord[]> | ReadRecord[]): Promise<ReaderRun> {
  const refused = new Map<string, string>();
  const started = performance.now();
  const records: ReadRecord[][] = [];
  for (const file of files) {
    try {
      records.push(await read(file));
    } catch (error) {
      refused.set(file, (error as Error).message);
      records.push([]);
    }
  }
  return { records, ms: performance.now() - started, refused };
}

/**
 * Payload digests: every declared one checked against the bytes this reader gave; `missing`
 * counts response records without one (warcio's serializer gives every record one).
 */
function digestFigures(records: readonly ReadRecord[]): { checked: number; wrong: number; missing: number } {
  let checked = 0;
  let wrong = 0;
  let missing = 0;
  for (const record of records) {
    if (record.declaredPayloadDigest === undefined) {
      if (record.type === 'response') missing++;
      continue;
    }
    checked++;
    if (!digestMatches(record.declaredPayloadDigest, record.payload)) wrong++;
  }
  return { checked, wrong, missing };
}

async function warcAtScale(): Promise<void> {
  const web = await startLocalWeb({ log: true });
  const out = join(WORK, 'warc-crawl');
  const seeds = [web.portal, ...web.sites.map((site) => site.hub)];
  console.log(`1. crawl --warc, ${WARC_PAGES} pages of the real corpus: ${web.sites.length} sites + portal on 127.0.0.x, seeded with the portal and every hub, bfs, --scope seed-hosts, delay 0, concurrency 4 (default)`);
  let crawl: ChildResult;
  try {
    crawl = await runLinkscent(
      ['crawl', ...seeds, '--scope', 'seed-hosts', '--strategy', 'bfs', '--max-pages', String(WARC_PAGES), '--out', out, '--delay-ms', '0', '--warc'],
      CHILD_ENV,
    );
  } finally {
    await web.close();
  }
  const served = web.served().slice();
  console.log(indent(crawl.stdout.trim()));

  const warcDir = join(out, 'warc');
  const files = readdirSync(warcDir).filter((name) => name.endsWith('.warc.gz')).sort().map((name) => join(warcDir, name));
  const warcBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
  const minimal = await readAll(files, readWithMinimal);
  const warcio = await readAll(files, readWithWarcio);
  const mine = minimal.records.flat();
  const theirs = warcio.records.flat();

  // The two readers, record by record, file by file.
  let agree = 0;
  let disagree = 0;
  for (const [i, records] of minimal.records.entries()) {
    const other = warcio.records[i]!;
    for (let j = 0; j < Math.max(records.length, other.length); j++) {
      if (records[j] !== undefined && other[j] !== undefined && recordKey(records[j]!) === recordKey(other[j]!)) agree++;
      else disagree++;
    }
  }

  // Pages against records: every page read in full has one response record, and only those.
  const pages = readPages(out);
  const requested = pages.filter((page) => page.outcome !== 'robots-denied');
  const readInFull = pages.filter((page) => page.outcome === 'ok');
  const responses = countBy(mine.filter((r) => r.type === 'response'), (r) => r.uri);
  const okFinal = countBy(readInFull, (page) => page.finalUrl);
  const onceEach = [...okFinal].filter(([url, n]) => n === 1 && responses.get(url) === 1).length;
  const okWithout = [...okFinal.keys()].filter((url) => !responses.has(url));
  const repeated = [...responses].filter(([, n]) => n > 1);
  const okTwice = [...okFinal].filter(([, n]) => n > 1);
  const responseWithoutPage = [...responses.keys()].filter((url) => !okFinal.has(url));
  const metadata = countBy(mine.filter((r) => r.type === 'metadata'), (r) => r.uri);
  const metadataExpected = countBy(requested, (page) => (page.outcome === 'ok' ? page.finalUrl : page.url));
  const metadataOff = [...new Set([...metadata.keys(), ...metadataExpected.keys()])].filter((url) => metadata.get(url) !== metadataExpected.get(url));

  // The server's log against the records: HTML it sent (200) is either archived or was in flight at the budget.
  const isHtml = (r: ServedResponse) => r.status === 200 && /^(text\/html|application\/xhtml\+xml)/.test(r.type);
  const servedHtml = new Map<string, ServedResponse>();
  for (const response of served.filter(isHtml)) servedHtml.set(response.url, response);
  const servedHtmlRequests = served.filter(isHtml).length;
  const states = frontierStates(out);
  const servedNotArchived = [...servedHtml.keys()].filter((url) => !responses.has(url));
  const servedNotArchivedStates = countBy(servedNotArchived, (url) => states.get(url) ?? (okFinal.has(url) ? 'recorded' : 'not in the store'));
  const archivedNotServed = [...responses.keys()].filter((url) => !servedHtml.has(url));
  const payloadVsServer = mine
    .filter((r) => r.type === 'response' && servedHtml.has(r.uri))
    .map((r) => sha256(r.payload) === servedHtml.get(r.uri)!.sha256);

  const digestsMinimal = digestFigures(mine);
  const digestsWarcio = digestFigures(theirs);
  const algorithms = listCounts(countBy(mine.filter((r) => r.declaredPayloadDigest !== undefined), (r) => r.declaredPayloadDigest!.split(':')[0]!));

  console.log(`   WARC files: ${files.length}, ${mbOf(warcBytes)} gzip (${fmt(warcBytes / Math.max(1, readInFull.length) / 1e3, 3)} kB per page read in full)`);
  console.log(indent(table([
    ['reader', 'records', 'by type', 'files refused', 'read time', 'MB/s (gzip)'],
    ['minimal (tools/)', String(mine.length), listCounts(countBy(mine, (r) => r.type)), String(minimal.refused.size), ms(minimal.ms), fmt(warcBytes / 1e3 / minimal.ms, 3)],
    ['warcio (npm)', String(theirs.length), listCounts(countBy(theirs, (r) => r.type)), String(warcio.refused.size), ms(warcio.ms), fmt(warcBytes / 1e3 / warcio.ms, 3)],
  ])));
  for (const [name, run] of [['minimal', minimal], ['warcio', warcio]] as const) {
    for (const [file, why] of run.refused) console.log(`   ${name} refused ${relative(ROOT, file)}: ${why}`);
  }
  console.log(`   readers agree record by record (type, target, id, Content-Length, declared digest, SHA-256 of payload): ${agree} agree, ${disagree} disagree`);
  console.log(`   pages.jsonl: ${pages.length} lines (${listCounts(countBy(pages, (p) => p.outcome))}); requested ${requested.length}, read in full (ok) ${readInFull.length}`);
  console.log(`   response records: ${[...responses.values()].reduce((a, b) => a + b, 0)} for ${responses.size} URLs; ok pages with exactly one: ${onceEach} of ${okFinal.size}; ok pages with none: ${okWithout.length}; URLs with several: ${repeated.length}; ok lines repeating a final URL: ${okTwice.length}; responses with no ok page: ${responseWithoutPage.length}`);
  console.log(`   metadata records: ${[...metadata.values()].reduce((a, b) => a + b, 0)} for ${requested.length} requested pages; URLs whose count differs from pages.jsonl's: ${metadataOff.length}`);
  console.log(`   payload digests (${algorithms}; every record but warcinfo), recomputed with node:crypto: on minimal's bytes ${digestsMinimal.checked} checked, ${digestsMinimal.wrong} wrong; on warcio's bytes ${digestsWarcio.checked} checked, ${digestsWarcio.wrong} wrong; responses without one ${digestsMinimal.missing}`);
  console.log(`   server log: ${served.length} responses (${listCounts(countBy(served, (r) => String(r.status)))}); HTML sent with 200: ${servedHtmlRequests} responses, ${servedHtml.size} URLs`);
  console.log(`   server's HTML vs response records: archived ${servedHtml.size - servedNotArchived.length}; sent but not archived ${servedNotArchived.length} (their state: ${listCounts(servedNotArchivedStates)}); archived but never sent ${archivedNotServed.length}; payload = bytes the server sent: ${payloadVsServer.filter(Boolean).length} of ${payloadVsServer.length}`);
  for (const url of [...okWithout, ...responseWithoutPage, ...archivedNotServed].slice(0, 5)) console.log(`   e.g. ${url}`);
  console.log(`   crawl process: ${fmt(crawl.wallMs / 1e3, 3)} s wall, peak RSS ${mbOf(crawl.peakRss)}`);
}

// ---------------------------------------------------------------------------------------------
// 2 and 3. Stop at the budget, and on Ctrl-C

/** Waits for the child's exit, killing it after `EXIT_GUARD_MS`; `killed` says so. */
async function awaitExit(started: StartedChild): Promise<ChildResult & { exitedAt: number; killed: boolean }> {
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    started.child.kill('SIGKILL');
  }, EXIT_GUARD_MS);
  try {
    return { ...(await started.done), killed };
  } finally {
    clearTimeout(guard);
  }
}

/** With --warc: the records' writing and closing are part of what must end within 2 s. */
function crawlArgs(site: StallSite, out: string, extra: string[] = []): string[] {
  return ['crawl', `${site.origin}/`, '--scope', 'seed-hosts', '--strategy', 'bfs', '--max-pages', String(BUDGET_PAGES), '--out', out, '--delay-ms', '0', '--warc', ...extra];
}

const pagesServed = (site: StallSite) => site.served.filter((page) => page.status === 200 && page.path !== STALL_PATH);

function storeLine(out: string, site: StallSite): string {
  const states = frontierStates(out);
  const pages = readPages(out);
  const distinct = new Set(pages.map((page) => page.url)).size;
  const warcDir = join(out, 'warc');
  const records = readdirSync(warcDir).filter((name) => name.endsWith('.warc.gz')).flatMap((name) => readMinimalWarc(readFileSync(join(warcDir, name))));
  const responses = countBy(records.filter((r) => r.headers.get('warc-type') === 'response'), (r) => r.headers.get('warc-target-uri') ?? '');
  const once = [...responses.values()].filter((n) => n === 1).length;
  return (
    `pages.jsonl ${pages.length} lines, ${distinct} distinct URLs; frontier ${listCounts(countBy([...states.values()], (s) => s))}; ${STALL_PATH} ${states.get(`${site.origin}${STALL_PATH}`) ?? 'absent'}; ` +
    `WARC (minimal reader): ${records.length} records, responses for ${responses.size} URLs, ${once} of them once, ${STALL_PATH} ${responses.get(`${site.origin}${STALL_PATH}`) ?? 0}`
  );
}

async function stopAtBudget(): Promise<void> {
  const site = await startStallSite();
  const out = join(WORK, 'budget');
  console.log(`\n2. stop at the budget: crawl --warc --max-pages ${BUDGET_PAGES} of a synthetic site (${site.pageCount} pages on ${site.origin}), ${STALL_PATH} never answered and linked first from /; bfs, --scope seed-hosts, delay 0, concurrency 4, per host 2 (defaults)`);
  try {
    const run = await awaitExit(startLinkscent(crawlArgs(site, out), CHILD_ENV));
    const served = pagesServed(site);
    const last = Math.max(...served.map((page) => page.finishedAt));
    console.log(indent(run.stdout.trim() || run.stderr.trim()));
    const gap = run.exitedAt - last;
    console.log(
      `   exit ${run.killed ? `KILLED after ${EXIT_GUARD_MS / 1e3} s (did not exit)` : `code ${run.code}`}; last page finished by the server → process exit: ${ms(gap)} (goal ≤ ${ms(EXIT_GOAL_MS)}: ${gap <= EXIT_GOAL_MS ? 'met' : 'MISSED'})`,
    );
    console.log(`   pages served (200) ${served.length}; ${STALL_PATH} asked ${site.stalls.length}×, its connection closed unanswered ${site.stalls.filter((s) => s.abandoned).length}× by the time the crawl exited`);
    console.log(`   ${storeLine(out, site)}`);
    console.log(`   process ${fmt(run.wallMs / 1e3, 3)} s wall, peak RSS ${mbOf(run.peakRss)}`);
  } finally {
    await site.close();
  }
}

async function stopOnSigint(): Promise<void> {
  const site = await startStallSite();
  const out = join(WORK, 'sigint');
  console.log(`\n3. Ctrl-C: the same crawl, SIGINT once the server has sent ${SIGINT_AFTER} pages; then --resume to ${BUDGET_PAGES}`);
  try {
    const started = startLinkscent(crawlArgs(site, out), CHILD_ENV);
    let signalAt = Number.NaN;
    const watch = setInterval(() => {
      if (Number.isNaN(signalAt) && pagesServed(site).length >= SIGINT_AFTER) {
        signalAt = performance.now();
        started.child.kill('SIGINT');
      }
    }, 1);
    const run = await awaitExit(started);
    clearInterval(watch);
    const after = pagesServed(site).filter((page) => page.finishedAt > signalAt).length;
    const last = Math.max(...pagesServed(site).map((page) => page.finishedAt));
    console.log(indent((run.stdout.trim() + '\n' + run.stderr.trim()).trim()));
    if (Number.isNaN(signalAt)) {
      console.log(`   the crawl ended before ${SIGINT_AFTER} pages were served: no signal sent`);
      return;
    }
    const gap = run.exitedAt - signalAt;
    console.log(
      `   exit ${run.killed ? `KILLED after ${EXIT_GUARD_MS / 1e3} s (did not exit)` : `code ${run.code}`}; SIGINT → process exit: ${ms(gap)} (goal ≤ ${ms(EXIT_GOAL_MS)}: ${gap <= EXIT_GOAL_MS ? 'met' : 'MISSED'}); last page served → exit ${ms(run.exitedAt - last)}`,
    );
    console.log(`   pages served (200) ${pagesServed(site).length}, ${after} of them finished after the signal`);
    console.log(`   ${storeLine(out, site)}`);

    const resumeStarted = site.served.length;
    const resumed = await awaitExit(startLinkscent(crawlArgs(site, out, ['--resume']), CHILD_ENV));
    const resumedServed = pagesServed(site).slice(0);
    const resumeLast = Math.max(...site.served.slice(resumeStarted).filter((p) => p.status === 200).map((p) => p.finishedAt));
    const resumeGap = resumed.exitedAt - resumeLast;
    console.log(indent(resumed.stdout.trim() || resumed.stderr.trim()));
    console.log(`   resume: exit ${resumed.killed ? 'KILLED (did not exit)' : `code ${resumed.code}`}; last page served → exit ${ms(resumeGap)}; pages served across both runs ${resumedServed.length}, distinct ${new Set(resumedServed.map((p) => p.path)).size}`);
    console.log(`   ${storeLine(out, site)}`);
  } finally {
    await site.close();
  }
}

async function main(): Promise<void> {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(CHILD_ENV.TMPDIR, { recursive: true });
  console.log(`records bench (issue 13 at scale); LinkScent through its command line; ${loadLine()}\n`);
  await warcAtScale();
  await stopAtBudget();
  await stopOnSigint();
  console.log(`\n${loadLine()}; work files in ${relative(ROOT, WORK)}/`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
