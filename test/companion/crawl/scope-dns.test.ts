/**
 * Out-of-scope links are never queued, so their hosts are never looked up. The web resolves by
 * a lookup function that records every name asked: the one stand-in here, since a test cannot
 * own real DNS; the sites, the HTTP and the crawl are real.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFunction } from '../../../companion/fetch/address-guard.ts';
import { runCrawl } from '../../../companion/crawl/crawler.ts';
import { createStrategy } from '../../../companion/crawl/strategies/index.ts';
import { byName, startThreeSiteWeb, type ThreeSiteWeb } from '../support/three-site-web.ts';
import { tempDir } from './crawl-test-helpers.ts';

let web: ThreeSiteWeb;
beforeAll(async () => {
  web = await startThreeSiteWeb({ names: true });
});
afterAll(() => web.close());

/** A resolver of the web's names to their loopback addresses, recording each name asked. */
function recordingLookup(asked: string[]): LookupFunction {
  type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
  return (hostname: string, options: LookupOptions, callback: Callback) => {
    asked.push(hostname);
    const address = byName[hostname];
    if (address === undefined) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '');
      return;
    }
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  };
}

async function crawl(scope: 'any' | 'seed-hosts', deny: string[] = []): Promise<string[]> {
  const asked: string[] = [];
  const { dir, cleanup } = tempDir();
  try {
    await runCrawl({
      seeds: [web.directory],
      outDir: dir,
      maxPages: 20,
      strategy: createStrategy('bfs'),
      delayMs: 0,
      concurrency: 2,
      scope: { scope, allow: [], deny },
      lookup: recordingLookup(asked),
      log: () => {},
    });
  } finally {
    cleanup();
  }
  return [...new Set(asked)].sort();
}

describe('crawl scope', () => {
  it('looks up no host outside the seeds\' hosts with --scope seed-hosts', async () => {
    expect(await crawl('seed-hosts')).toEqual(['dir.test']);
  });

  it('looks up no host a --deny pattern names', async () => {
    expect(await crawl('any', ['life.test', 'sports.test'])).toEqual(['digital.test', 'dir.test']);
  });

  it('looks up every linked host with --scope any (the control: the recording works)', async () => {
    expect(await crawl('any')).toEqual(['digital.test', 'dir.test', 'life.test', 'sports.test']);
  });
});
