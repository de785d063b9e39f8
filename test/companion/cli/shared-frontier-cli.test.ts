/**
 * `crawl --frontier` and `status --frontier` at the command line's edge: a bad URL is bad usage
 * (exit 2), an unreachable Redis a failure (exit 1), each one line; a crawl option that is kept
 * per process is refused with a shared frontier; `status` of a crawl Redis does not hold exits 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSkipReason, startRedis, type RunningRedis } from '../../../bench/support/redis-server.ts';
import { runCli } from '../support/run-cli.ts';

async function expectOneLineFailure(args: string[], code: number, pattern: RegExp): Promise<void> {
  const result = await runCli(args);
  expect(result.errorLines, result.stderr).toHaveLength(1);
  expect(result.errorLines[0]).toMatch(pattern);
  expect(result.code).toBe(code);
}

describe('crawl and status with --frontier', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkscent-frontier-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a bad --frontier URL is bad usage, before anything is done', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', join(dir, 'a'), '--frontier', 'redis://127.0.0.1:6379/x'], 2, /^linkscent crawl: --frontier "redis:\/\/127.0.0.1:6379\/x": database must be a number from 0 to 15/));

  it('status without a usable --frontier is bad usage', () => expectOneLineFailure(['status', '--frontier', 'mysql://h/0'], 2, /^linkscent status: --frontier "mysql:\/\/h\/0": unknown scheme mysql/));

  it('an unreachable Redis is one line and exit 1', () =>
    expectOneLineFailure(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', join(dir, 'b'), '--frontier', 'redis://127.0.0.1:1/0'], 1, /^linkscent crawl: cannot reach Redis at redis:\/\/127.0.0.1:1\/0: .*ECONNREFUSED/));

  it('an option kept per process (--warc) is refused with a shared frontier, before Redis is asked', async () => {
    const result = await runCli(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', join(dir, 'c'), '--frontier', 'redis://127.0.0.1:1/0', '--warc']);
    expect(result.code).toBe(1);
    expect(result.errorLines).toEqual([expect.stringMatching(/^linkscent crawl: a shared frontier \(--frontier redis:\/\/…\) does not work with WARC output yet/)]);
  });

  it('a strategy that re-ranks in one process (ipagerank) is refused with a shared frontier, before Redis is asked', async () => {
    const result = await runCli(['crawl', 'http://127.0.0.1:9/', '--max-pages', '5', '--out', join(dir, 'd'), '--frontier', 'redis://127.0.0.1:1/0', '--strategy', 'ipagerank', '--topic', '财经']);
    expect(result.code).toBe(1);
    // Before it, the note every ipagerank crawl gives: where its word similarity comes from.
    expect(result.errorLines).toEqual([
      "linkscent crawl: ipagerank: word similarity from co-occurrence in the topic's text",
      'linkscent crawl: a shared frontier (--frontier redis://…) does not work with --strategy ipagerank yet: its ranks are one process\'s graph',
    ]);
  });

  describe.skipIf(redisSkipReason)('against a real redis-server', () => {
    let redis: RunningRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis?.stop());

    it('status of a crawl Redis does not hold says so and exits 1', async () => {
      const result = await runCli(['status', '--frontier', `${redis.url}?crawl=none`]);
      expect(result.code).toBe(1);
      expect(result.stdout.trim()).toBe(`no crawl "none" at ${redis.url}`);
    });
  });
});
