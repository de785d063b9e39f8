/**
 * An unreachable seed fails fast (issue 13, item 4): when no seed's host answers (refused, not
 * resolvable, timed out), `crawl` and `collect` stop in one line naming each seed and why, exit
 * 1, and write no crawl; they used to set the seeds aside, sleep 5 minutes twice, and record
 * them robots-denied. A host that gives no answer later in a crawl is recorded as unreachable
 * (its network failure, status 0), which the dashboard shows as such, not as robots-denied.
 *
 * Real loopback servers: a port just closed (refused), a server that accepts and never speaks
 * (timed out), a site that answers; a resolver stub for a name that does not resolve.
 */
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeedsUnreachableError } from '../../../companion/crawl/crawl-errors.ts';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import type { LookupFunction } from '../../../companion/fetch/address-guard.ts';
import { startHostileServer, startScriptedSite, type HostileServer, type ScriptedSite } from '../support/hostile-server.ts';
import { runCli } from '../support/run-cli.ts';
import { readPages, tempDir } from './crawl-test-helpers.ts';

let hostile: HostileServer;
let site: ScriptedSite;
let refusedA: string;
let refusedB: string;
const cleanups: (() => void)[] = [];

/** An origin on a port that was just closed: connections to it are refused. */
async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  hostile = await startHostileServer();
  refusedA = hostile.refusedOrigin;
  refusedB = await refusedOrigin();
  site = await startScriptedSite({
    page: (path) => (path === '/' ? `<html><body><p><a href="${refusedB}/gone">gone</a> <a href="/a">a</a></p></body></html>` : '<p>a page</p>'),
  });
});
afterAll(async () => {
  for (const cleanup of cleanups) cleanup();
  await hostile.close();
  await site.close();
});

function outDir(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'out');
}

describe('a new crawl none of whose seeds can be reached', () => {
  it('stops before writing anything, naming each seed and why (refused, timed out)', async () => {
    const out = outDir();
    const silent = `http://${hostile.silentHost}/`;
    const crawl = runCrawl({
      seeds: [`${refusedA}/`, silent],
      outDir: out,
      maxPages: 5,
      strategy: createStrategy('bfs'),
      fetch: { responseTimeoutMs: 500 },
      log: () => {},
    });
    await expect(crawl).rejects.toThrow(SeedsUnreachableError);
    await expect(crawl).rejects.toThrow(`every seed is unreachable: ${refusedA}/ (connection refused); ${silent} (response not complete within 500 ms)`);
    expect(existsSync(join(out, 'crawl.sqlite'))).toBe(false);
  });

  it('names a seed whose host name does not resolve', async () => {
    // The one stand-in: a resolver that knows no name (a test cannot own DNS, nor leave loopback).
    const nowhere: LookupFunction = (hostname, _options, callback) => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
    const crawl = runCrawl({ seeds: ['http://nowhere.test/', `${refusedA}/`], outDir: outDir(), maxPages: 5, strategy: createStrategy('bfs'), lookup: nowhere, log: () => {} });
    await expect(crawl).rejects.toThrow(`every seed is unreachable: http://nowhere.test/ (host not found (DNS)); ${refusedA}/ (connection refused)`);
  });

  it('linkscent crawl: one line, exit 1, and the same command can be run again', async () => {
    const out = outDir();
    const args = ['crawl', `${refusedA}/`, `${refusedB}/x`, '--max-pages', '5', '--out', out];
    const result = await runCli(args);
    expect(result.errorLines).toEqual([`linkscent crawl: every seed is unreachable: ${refusedA}/ (connection refused); ${refusedB}/x (connection refused)`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect((await runCli(args)).errorLines).toEqual(result.errorLines); // no "already holds a crawl"
  });

  it('linkscent collect: one line, exit 1', async () => {
    const result = await runCli(['collect', `${refusedA}/`, '--positive', 'a.test', '--max-pages', '5', '--out', join(dirname(outDir()), 'labeled.jsonl')]);
    expect(result.errorLines).toEqual([`linkscent collect: every seed is unreachable: ${refusedA}/ (connection refused)`]);
    expect(result.code).toBe(1);
  });
});

describe('an unreachable host among reachable ones', () => {
  it('is no reason to stop when another seed answers', async () => {
    const summary = await runCrawl({ seeds: [`${refusedA}/`, `${site.origin}/a`], outDir: outDir(), maxPages: 5, strategy: createStrategy('bfs'), delayMs: 0, log: () => {} });
    expect(summary).toMatchObject({ fetched: 1, stoppedBy: 'hosts-unreachable' });
  });

  it('has its URLs recorded as unreachable (network-error, status 0), not robots-denied', async () => {
    const out = outDir();
    const summary = await runCrawl({ seeds: [`${site.origin}/`], outDir: out, maxPages: 5, strategy: createStrategy('bfs'), delayMs: 0, retry: { retries: 0 }, log: () => {} });
    expect(summary).toMatchObject({ robotsDenied: 0, stoppedBy: 'frontier-empty' });
    expect(readPages(out).find((p) => p.url === `${refusedB}/gone`)).toMatchObject({
      outcome: 'network-error',
      status: 0,
      error: 'robots.txt unreachable: connection refused (asked once)',
    });
  });
});
