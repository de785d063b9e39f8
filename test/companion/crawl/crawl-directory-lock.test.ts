/**
 * One process at a time in a crawl directory (issue 13, item 7). Two `crawl --resume` of one
 * directory at once both claimed and recorded pages, and the crawl was left unresumable for good
 * (`UNIQUE constraint failed: pages.url`). Now the second one is refused in one line naming the
 * directory and the holder's pid, a dead holder's lock is free again, and a resume repairs a URL
 * left both recorded and queued instead of dying on it.
 *
 * Real processes (the crawl in `crawl-child.ts`, the refused one through the real bin), a real
 * loopback site, real SQLite files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { DirectoryInUseError } from '../../../companion/platform/directory-lock.ts';
import { runCli } from '../support/run-cli.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

const CHILD = resolve(import.meta.dirname, '../support/crawl-child.ts');
const MAX_PAGES = 12;
const PATHS = Array.from({ length: 20 }, (_, i) => `/p${i}`);

/** Released when the test says: the page /p3 waits for it, and the crawl holding the directory with it. */
let releaseHeld: () => void = () => {};
let site: ScriptedSite;
const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
beforeAll(async () => {
  const held = new Promise<void>((resolve) => (releaseHeld = resolve));
  site = await startScriptedSite({
    page: (path) => (path === '/' ? `<html><body>${PATHS.map((p) => `<p><a href="${p}">${p}</a></p>`).join('')}</body></html>` : '<p>a page</p>'),
    hold: (path) => (path === '/p3' ? held : undefined),
  });
});
afterAll(async () => {
  releaseHeld();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups) cleanup();
  await site.close();
});

function outDir(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'out');
}

/** A crawl in a child process, one page at a time; resolves once it has reported `lines` pages. */
async function crawlChild(out: string, lines: number): Promise<{ child: ChildProcess; exited: Promise<number | string | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, `${site.origin}/`, out, String(MAX_PAGES), '0', '0', '1'], {
    cwd: resolve(import.meta.dirname, '../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | string | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
  const file = join(out, 'pages.jsonl');
  const deadline = Date.now() + 30_000;
  while (!existsSync(file) || readFileSync(file, 'utf8').split('\n').length <= lines) {
    if (child.exitCode !== null) throw new Error(`child exited early (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) throw new Error(`child reported fewer than ${lines} pages in 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return { child, exited };
}

const resume = (out: string, maxPages = MAX_PAGES) =>
  runCrawl({ seeds: [], outDir: out, maxPages, strategy: createStrategy('bfs'), delayMs: 0, resume: true, log: () => {} });

describe('a crawl directory in use', () => {
  it('refuses a second crawl --resume in one line naming the directory and the holder\'s pid; the first goes on', async () => {
    const out = outDir();
    // Three pages in (/, /p0, /p1, /p2), the child waits on /p3, which the site holds back.
    const { child, exited } = await crawlChild(out, 4);
    const second = await runCli(['crawl', '--resume', '--out', out, '--max-pages', String(MAX_PAGES), '--delay-ms', '0']);
    expect(second.errorLines).toHaveLength(1);
    expect(second.errorLines[0]).toMatch(
      new RegExp(`^linkscent crawl: the crawl directory ${out} is in use by process ${child.pid} \\(since [^)]+\\); wait for it to end, or stop it$`),
    );
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    releaseHeld();
    expect(await exited).toBe(0);
    const urls = readPages(out).filter((p) => p.outcome !== 'robots-denied').map((p) => p.url);
    expect(urls).toHaveLength(MAX_PAGES);
    expect(new Set(urls).size).toBe(MAX_PAGES);
  });

  it('is free again once its holder is killed: kill -9, then a resume finishes the crawl', async () => {
    const out = outDir();
    const { child, exited } = await crawlChild(out, 2);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const summary = await resume(out);
    expect(summary).toMatchObject({ fetched: MAX_PAGES, stoppedBy: 'max-pages', resumed: true });
    const urls = readPages(out).map((p) => p.url);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('refuses a second run in the same process too (two runs of one served crawl)', async () => {
    const out = outDir();
    const first = runCrawl({ seeds: [`${site.origin}/`], outDir: out, maxPages: 5, strategy: createStrategy('bfs'), delayMs: 0, log: () => {} });
    await expect(resume(out)).rejects.toThrow(DirectoryInUseError);
    await expect(resume(out)).rejects.toThrow(`the crawl directory ${out} is in use by process ${process.pid}`);
    expect((await first).fetched).toBe(5);
    expect((await resume(out, 6)).fetched).toBe(6); // and free once the first is over
  });
});

describe('resume repairs what two runs at once left', () => {
  it('a URL both recorded and queued is marked done, not fetched and recorded again', async () => {
    const out = outDir();
    await runCrawl({ seeds: [`${site.origin}/`], outDir: out, maxPages: 4, strategy: createStrategy('bfs'), delayMs: 0, log: () => {} });
    // What the race left: a recorded page's frontier row queued again, at the head of the queue.
    const recorded = readPages(out)[1]!.url;
    const db = new Database(join(out, 'crawl.sqlite'));
    db.prepare(`UPDATE frontier SET state = 'queued', score = 1e9 WHERE url = ?`).run(recorded);
    db.close();
    const logs: string[] = [];
    const requestsBefore = site.requests.length;
    const summary = await runCrawl({ seeds: [], outDir: out, maxPages: 8, strategy: createStrategy('bfs'), delayMs: 0, resume: true, log: (line) => logs.push(line) });
    expect(summary).toMatchObject({ fetched: 8, stoppedBy: 'max-pages' });
    expect(logs.filter((line) => /^crawl: 1 URL\(s\) were recorded and also queued again .*marked done, not fetched again$/.test(line))).toHaveLength(1);
    const urls = readPages(out).map((p) => p.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(site.requests.slice(requestsBefore).map((r) => r.path)).not.toContain(new URL(recorded).pathname);
  });
});
