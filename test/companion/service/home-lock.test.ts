/**
 * The service cannot race itself or a command line (issue 13, item 7): one service per home (a
 * second `linkscent serve` on it, on another port, would resume the same crawls into the same
 * stores), and a served crawl's directory is locked like any crawl directory, so `crawl --resume
 * --out` of it is refused while the service runs it, and a served crawl whose directory another
 * process holds is paused, not failed. Real bin, real loopback site, real files.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockCrawlDirectory } from '../../../companion/crawl/crawl-session.ts';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';
import { runCli } from '../support/run-cli.ts';
import { call, tempHome, waitForCrawl } from './service-helpers.ts';

const PATHS = Array.from({ length: 10 }, (_, i) => `/p${i}`);
/** Pages the site holds back until the test releases them: each crawl below waits on one. */
const held = new Map<string, { promise: Promise<void>; release: () => void }>();
for (const path of ['/p1', '/p5']) {
  let release = () => {};
  const promise = new Promise<void>((resolve) => (release = resolve));
  held.set(path, { promise, release });
}
const releaseHeld = (path: string) => held.get(path)!.release();
let site: ScriptedSite;
let home: ReturnType<typeof tempHome>;
let service: RunningService | undefined;

beforeAll(async () => {
  site = await startScriptedSite({
    page: (path) => (path === '/' ? `<html><body>${PATHS.map((p) => `<p><a href="${p}">${p}</a></p>`).join('')}</body></html>` : '<p>a page</p>'),
    hold: (path) => held.get(path)?.promise,
  });
  home = tempHome();
});
afterAll(async () => {
  for (const path of held.keys()) releaseHeld(path);
  await service?.close();
  await site.close();
  home.cleanup();
});

const api = (path: string, options: Parameters<typeof call>[2] = {}) => call(service!.port, path, { token: service!.token, ...options });

describe('one service per home', () => {
  it('a second linkscent serve on a home in use fails in one line naming the home and the holder\'s pid', async () => {
    service = await startService({ port: 0, home: home.dir, log: () => {} });
    const second = await runCli(['serve', '--port', '0'], { env: { LINKSCENT_HOME: home.dir } });
    expect(second.errorLines).toHaveLength(1);
    expect(second.errorLines[0]).toMatch(
      new RegExp(`^linkscent serve: the service home ${home.dir} \\(another linkscent serve\\?\\) is in use by process ${process.pid} \\(since [^)]+\\); wait for it to end, or stop it$`),
    );
    expect(second.code).toBe(1);
  });
});

describe('a served crawl\'s directory', () => {
  it('refuses crawl --resume --out of it while the service runs it', async () => {
    const created = (await api('/api/crawls', { body: { seeds: [`${site.origin}/`], maxPages: 5, delayMs: 0, concurrency: 1 } })).json();
    const dir = join(home.dir, 'crawls', created.id);
    await waitForCrawl(service!.port, service!.token, created.id, (info) => info.progress.fetched >= 2); // now held on /p1
    const cli = await runCli(['crawl', '--resume', '--out', dir, '--max-pages', '5']);
    expect(cli.errorLines).toEqual([expect.stringMatching(new RegExp(`^linkscent crawl: the crawl directory ${dir} is in use by process ${process.pid} `))]);
    expect(cli.code).toBe(1);
    releaseHeld('/p1');
    const done = await waitForCrawl(service!.port, service!.token, created.id, (info) => info.state !== 'running');
    expect(done).toMatchObject({ state: 'done', progress: { fetched: 5 } });
  });

  it('is paused, not failed, when the service finds it held by another process; resumes once free', async () => {
    const created = (await api('/api/crawls', { body: { seeds: [`${site.origin}/`], maxPages: 8, delayMs: 0, concurrency: 1 } })).json();
    await waitForCrawl(service!.port, service!.token, created.id, (info) => info.progress.fetched >= 1); // it waits on /p5
    await service!.close(); // the crawl stays running on disk, to resume at the next start
    const lock = lockCrawlDirectory(join(home.dir, 'crawls', created.id)); // another process's, as far as the service can tell
    const logs: string[] = [];
    service = await startService({ port: 0, home: home.dir, log: (line) => logs.push(line) });
    const paused = await waitForCrawl(service.port, service.token, created.id, (info) => info.state !== 'running');
    expect(paused.state).toBe('paused');
    expect(paused.error).toBeUndefined();
    expect(logs).toContainEqual(expect.stringMatching(new RegExp(`^crawl ${created.id} paused: the crawl directory .* is in use by process ${process.pid} `)));
    lock.release();
    releaseHeld('/p5');
    expect((await api(`/api/crawls/${created.id}/resume`, { method: 'POST' })).status).toBe(200);
    const done = await waitForCrawl(service.port, service.token, created.id, (info) => info.state === 'done');
    expect(done.progress.fetched).toBe(8);
  });
});
