/**
 * `--retries N` on `linkscent crawl` and `collect`, through the real bin against the hostile
 * server's /flaky/… routes (the retry behaviour itself: test/companion/crawl/retries.test.ts).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPages, tempDir } from '../crawl/crawl-test-helpers.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';
import { runCli } from '../support/run-cli.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function server(): Promise<HostileServer> {
  const s = await startHostileServer({ robots: 'not-found' });
  cleanups.push(() => s.close());
  return s;
}

describe('linkscent crawl --retries', () => {
  it('sets the retries: 1 fetches a page that fails twice twice, and records the failure', async () => {
    const s = await server();
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const out = join(dir, 'out');
    const result = await runCli(['crawl', `${s.origin}/flaky/503/2/h`, '--max-pages', '1', '--out', out, '--delay-ms', '0', '--retries', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(readPages(out)[0]).toMatchObject({ outcome: 'http-error', status: 503, attempts: 2 });
    expect(s.hits('/flaky/503/2/h')).toBe(2);
  });

  it('is bad usage beyond 10 or below 0, and is listed in --help', async () => {
    const tooMany = await runCli(['crawl', 'http://127.0.0.1:1/', '--max-pages', '1', '--out', '/nonexistent', '--retries', '11']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.errorLines).toEqual(['linkscent crawl: --retries must be at most 10, got "11"']);
    const negative = await runCli(['collect', 'http://127.0.0.1:1/', '--positive', 'x', '--max-pages', '1', '--out', '/nonexistent', '--retries', '-1']);
    expect(negative.code).toBe(2);
    const help = await runCli(['crawl', '--help']);
    expect(help.stdout).toMatch(/--retries <N>\s+Attempts after the first when a page fails transiently .*\[default: 2\]/);
  });
});
