/**
 * The shared-frontier tests' set-up: one real redis-server for the test file (none where it is
 * not installed: the tests skip on `redisSkipReason`), and what each test opened, closed after it
 * in the reverse order.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { redisSkipReason, startRedis, type RunningRedis } from '../../../../bench/support/redis-server.ts';

export interface RedisPerFile {
  /** The file's Redis: its `redis://` URL. */
  readonly url: string;
  /** Closers of what a test opened; run after each test, last first. */
  readonly cleanups: (() => Promise<void> | void)[];
}

export function redisPerFile(): RedisPerFile {
  let redis: RunningRedis | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    if (!redisSkipReason) redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    get url() {
      if (!redis) throw new Error(`no redis-server for this file: ${redisSkipReason ?? 'not started yet'}`);
      return redis.url;
    },
    cleanups,
  };
}
