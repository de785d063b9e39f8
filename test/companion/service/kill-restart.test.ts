/**
 * The service killed with SIGKILL mid-crawl (no handler runs, nothing is flushed), started again:
 * the crawl resumes by itself and ends with exactly maxPages pages in pages.jsonl, none twice,
 * none lost (every page reported before the kill is still there, in the same order), all of them
 * pages of the site. The real bin (`node companion/bin/linkscent.mjs serve --port P`), as a user
 * runs it; the crawl is an nb crawl, so the model file is reloaded from the crawl's directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT } from '../support/run-cli.ts';
import { startSiteServer, type SiteServer } from '../support/site-server.ts';
import { call, freePort, parseJsonl, tempHome, waitForCrawl, writeFinanceModel } from './service-helpers.ts';

const MAX_PAGES = 60;
let site: SiteServer;
let home: ReturnType<typeof tempHome>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  site = await startSiteServer({ perTopic: 40, delayMs: 10 });
  home = tempHome();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await site?.close();
  home?.cleanup();
});

interface Served {
  child: ChildProcess;
  token: string;
  output: () => string;
}

/** Starts `linkscent serve` and waits for its pairing token line. */
async function serve(port: number): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], {
    cwd: REPO_ROOT,
    env: { ...process.env, LINKSCENT_HOME: join(home.dir, 'home'), LINKSCENT_DEBUG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const token = /^pairing token: (\S+)$/m.exec(stdout)?.[1];
    if (token && stdout.includes('dashboard: ')) return { child, token, output: () => stdout + stderr };
    if (child.exitCode !== null) throw new Error(`serve exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) throw new Error(`serve printed no token in 30 s: ${stdout}${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Complete lines of pages.jsonl (a line being written at the kill does not count). */
function reportedUrls(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').slice(0, -1).map((line) => (JSON.parse(line) as { url: string }).url);
}

describe('linkscent serve killed mid-crawl', () => {
  it('resumes the crawl on restart: exactly maxPages pages, none twice, none lost', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const first = await serve(port);
    expect(first.output()).toContain(`listening on http://127.0.0.1:${port}`);
    const modelPath = join(home.dir, 'model.json');
    await writeFinanceModel(modelPath, site);
    const { modelId } = (await call(port, '/api/models', { token: first.token, body: readFileSync(modelPath, 'utf8') })).json();
    // 60 pages at one request per 60 ms to the one host: a few seconds, time to kill it midway.
    const created = await call(port, '/api/crawls', { token: first.token, body: { seeds: [`${site.origin}/`], modelId, maxPages: MAX_PAGES, delayMs: 60 } });
    expect(created.status).toBe(201);
    const id = created.json().id as string;
    const pagesFile = join(home.dir, 'home', 'crawls', id, 'pages.jsonl');

    const deadline = Date.now() + 30_000;
    while (reportedUrls(pagesFile).length < 15) {
      if (Date.now() > deadline) throw new Error(`fewer than 15 pages in 30 s: ${first.output()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const exited = new Promise((resolve) => first.child.on('exit', (_code, signal) => resolve(signal)));
    first.child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const beforeKill = reportedUrls(pagesFile);
    expect(beforeKill.length).toBeLessThan(MAX_PAGES);
    const crawlJson = JSON.parse(readFileSync(join(home.dir, 'home', 'crawls', id, 'crawl.json'), 'utf8'));
    expect(crawlJson.state).toBe('running');

    const second = await serve(port);
    expect(second.token).toBe(first.token); // the pairing survives
    const done = await waitForCrawl(port, second.token, id, (c) => c.state !== 'running', 60_000);
    expect(done).toMatchObject({ state: 'done', strategy: 'nb', progress: { fetched: MAX_PAGES } });

    const lines = parseJsonl<{ url: string; outcome: string }>((await call(port, `/api/crawls/${id}/pages.jsonl`, { token: second.token })).text);
    const urls = lines.map((line) => line.url);
    expect(new Set(urls).size).toBe(urls.length); // no URL twice
    expect(lines.filter((line) => line.outcome !== 'robots-denied')).toHaveLength(MAX_PAGES);
    expect(urls.slice(0, beforeKill.length)).toEqual(beforeKill); // nothing reported was lost
    const sitePages = new Set(site.paths().map((path) => `${site.origin}${path}`));
    for (const url of urls) expect(sitePages.has(url)).toBe(true);
    expect(lines.every((line) => line.outcome === 'ok' || line.outcome === 'robots-denied')).toBe(true);
    expect(second.output()).toContain(`resuming crawl ${id}`);

    second.child.kill('SIGTERM');
    const code = await new Promise((resolve) => second.child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });
});
