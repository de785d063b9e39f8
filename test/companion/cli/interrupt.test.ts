/**
 * Ctrl-C and SIGTERM stop a crawl as its budget does (issue 13, item 5): whatever is in flight is
 * abandoned, not waited for, its URL stays queued, and `linkscent crawl` exits 130 with its
 * summary. A robots.txt question in flight used to be waited out (30 s, its response deadline),
 * since only page fetches listened to the stop.
 *
 * The real bin in a child process, signalled once the site has seen the request it holds back
 * for ever; the 20 s guard is below the 30 s a crawl that waited would take.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { startCli } from '../support/run-cli.ts';
import { tempDir } from '../crawl/crawl-test-helpers.ts';

let stalledRobots: ScriptedSite;
let stalledPage: ScriptedSite;
const cleanups: (() => void)[] = [];
const never = () => new Promise<void>(() => {});

beforeAll(async () => {
  stalledRobots = await startScriptedSite({ page: () => '<p>a page</p>', hold: (path) => (path === '/robots.txt' ? never() : undefined) });
  stalledPage = await startScriptedSite({
    page: (path) => (path === '/' ? '<p><a href="/stall">stall</a></p>' : '<p>a page</p>'),
    hold: (path) => (path === '/stall' ? never() : undefined),
  });
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await stalledRobots.close();
  await stalledPage.close();
});

function outDir(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'out');
}

async function seen(site: ScriptedSite, path: string): Promise<void> {
  while (!site.requests.some((r) => r.path === path)) await new Promise((r) => setTimeout(r, 10));
}

function queued(out: string): string[] {
  const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
  try {
    return (db.prepare(`SELECT url FROM frontier WHERE state = 'queued'`).all() as { url: string }[]).map((row) => row.url);
  } finally {
    db.close();
  }
}

function recorded(out: string): string[] {
  const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
  try {
    return db.prepare(`SELECT url FROM pages ORDER BY seq`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe('linkscent crawl stopped by a signal', () => {
  it('Ctrl-C while robots.txt does not answer: exits 130 at once, the URL queued', async () => {
    const out = outDir();
    const running = startCli(['crawl', `${stalledRobots.origin}/`, '--max-pages', '5', '--out', out], { timeoutMs: 20_000 });
    await seen(stalledRobots, '/robots.txt');
    running.child.kill('SIGINT');
    const result = await running.done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toMatch(/stopped by aborted/);
    expect(queued(out)).toEqual([`${stalledRobots.origin}/`]);
    expect(stalledRobots.requests.filter((r) => r.path !== '/robots.txt')).toEqual([]);
  });

  it('SIGTERM while a page does not answer: exits 130 at once, the page queued, the server sees the fetch abandoned', async () => {
    const out = outDir();
    const running = startCli(['crawl', `${stalledPage.origin}/`, '--max-pages', '5', '--out', out, '--delay-ms', '0'], { timeoutMs: 20_000 });
    await seen(stalledPage, '/stall');
    running.child.kill('SIGTERM');
    const result = await running.done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toMatch(/^crawl: 1 pages this run .* stopped by aborted/);
    expect(queued(out)).toEqual([`${stalledPage.origin}/stall`]);
    expect(recorded(out)).toEqual([`${stalledPage.origin}/`]); // the page's batch of writes committed as the crawl stopped
    // The server hears the socket close a moment after the process is gone.
    while (!stalledPage.requests.find((r) => r.path === '/stall')?.abandoned) await new Promise((r) => setTimeout(r, 5));
  });
});
