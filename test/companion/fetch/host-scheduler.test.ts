/**
 * HostScheduler with real timers. Timing assertions are one-sided ("the second start is at least
 * the delay after the first", up to `RESUME_SLACK_MS` of measuring), plus generous upper
 * bounds only where a test would otherwise hang; nothing depends on a tight clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FETCH_OPTIONS } from '../../../companion/fetch/fetch-options.ts';
import { fetchPage } from '../../../companion/fetch/fetch-page.ts';
import { HostScheduler, HostSchedulerClosedError } from '../../../companion/fetch/host-scheduler.ts';
import { closeSharedAgents } from '../../../companion/fetch/http-agent.ts';
import { startHostileServer, type HostileServer } from '../support/hostile-server.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The scheduler spaces starts by its own clock reading at each grant; a test can only read the
 * clock a little later, when the awaiting job resumes, and that lag differs between jobs (the
 * first grant resumes behind the others' queueing). Spacings are compared with this much slack.
 */
const RESUME_SLACK_MS = 1;

/** Acquires for each label in order (all queued at once), records start times, holds each `holdMs`. */
async function run(scheduler: HostScheduler, jobs: { host: string; label: string; crawlDelayMs?: number }[], holdMs = 0) {
  const starts: { label: string; at: number }[] = [];
  const queuedAt = performance.now();
  let active = 0;
  let maxActive = 0;
  await Promise.all(
    jobs.map(async ({ host, label, crawlDelayMs }) => {
      const release = await scheduler.acquire(host, crawlDelayMs);
      starts.push({ label, at: performance.now() });
      maxActive = Math.max(maxActive, ++active);
      await sleep(holdMs);
      active--;
      release();
    }),
  );
  return { starts, maxActive, queuedAt };
}

describe('HostScheduler', () => {
  it('spaces request starts to one host by at least delayMs', async () => {
    const { starts, queuedAt } = await run(new HostScheduler({ perHostConcurrency: 2, delayMs: 100 }), ['1', '2', '3'].map((label) => ({ host: 'a', label })));
    // The k-th start is at least k delays after the jobs were queued. Measured from the queueing,
    // not from the previous start: a start is read when its job resumes, and on a busy machine
    // the first job resumed 15 ms late once, which shortened the next gap as measured to 85 ms
    // (CI). Lateness only moves a start later, so this bound holds however busy the loop is, and
    // a scheduler that did not space would start all three within a few ms.
    expect(starts[1]!.at - queuedAt).toBeGreaterThanOrEqual(100 - RESUME_SLACK_MS);
    expect(starts[2]!.at - queuedAt).toBeGreaterThanOrEqual(200 - RESUME_SLACK_MS);
  });

  it('keeps at most perHostConcurrency requests in flight per host', async () => {
    const jobs = Array.from({ length: 6 }, (_, i) => ({ host: 'a', label: String(i) }));
    const { maxActive, starts } = await run(new HostScheduler({ perHostConcurrency: 2, delayMs: 0 }), jobs, 40);
    expect(maxActive).toBe(2);
    expect(starts).toHaveLength(6);
  });

  it('serves one host first come, first served', async () => {
    const jobs = Array.from({ length: 8 }, (_, i) => ({ host: 'a', label: String(i) }));
    const { starts } = await run(new HostScheduler({ perHostConcurrency: 1, delayMs: 5 }), jobs, 2);
    expect(starts.map((s) => s.label)).toEqual(jobs.map((j) => j.label));
  });

  it('lets a Crawl-delay larger than delayMs widen the spacing', async () => {
    const { starts } = await run(new HostScheduler({ perHostConcurrency: 2, delayMs: 10 }), [
      { host: 'a', label: '1', crawlDelayMs: 150 },
      { host: 'a', label: '2', crawlDelayMs: 150 },
    ]);
    expect(starts[1]!.at - starts[0]!.at).toBeGreaterThanOrEqual(150 - RESUME_SLACK_MS);
  });

  it('does not make one host wait for another', async () => {
    const scheduler = new HostScheduler({ perHostConcurrency: 1, delayMs: 5_000 });
    const first = performance.now();
    const releaseA = await scheduler.acquire('a.example');
    const releaseB = await scheduler.acquire('b.example');
    expect(performance.now() - first).toBeLessThan(1_000);
    releaseA();
    releaseB();
  });

  it('ignores a second call of the same release function', async () => {
    const scheduler = new HostScheduler({ perHostConcurrency: 1, delayMs: 0 });
    const release = await scheduler.acquire('a');
    const second = scheduler.acquire('a');
    const third = scheduler.acquire('a');
    release();
    release();
    await second;
    expect(scheduler.load('a')).toEqual({ active: 1, waiting: 1 });
    expect(await Promise.race([third.then(() => 'third started'), sleep(50).then(() => 'third waits')])).toBe('third waits');
  });

  it('gives up a waiting place when its signal aborts, and moves the queue on', async () => {
    const scheduler = new HostScheduler({ perHostConcurrency: 1, delayMs: 0 });
    const release = await scheduler.acquire('a');
    const controller = new AbortController();
    const abandoned = scheduler.acquire('a', undefined, controller.signal);
    const next = scheduler.acquire('a');
    controller.abort(new Error('stopped'));
    await expect(abandoned).rejects.toThrow('stopped');
    release();
    const releaseNext = await next;
    expect(scheduler.load('a')).toEqual({ active: 1, waiting: 0 });
    releaseNext();
  });

  // Regression: the timer a waiter waits on was unref'd, so a process with nothing else to do
  // exited mid-crawl (exit 13). See also test/companion/crawl/politeness-exit.test.ts.
  it('holds the process open while a request waits, and not once nobody waits', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const scheduler = new HostScheduler({ perHostConcurrency: 1, delayMs: 10_000 });
    const release = await scheduler.acquire('a');
    release();
    const idle = timers(); // the idle host's forget timer is unref'd: not counted
    const controller = new AbortController();
    const waiting = scheduler.acquire('a', undefined, controller.signal); // must wait ~10 s on a timer
    await sleep(0);
    expect(scheduler.load('a')).toEqual({ active: 0, waiting: 1 });
    expect(timers()).toBe(idle + 1);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(timers()).toBe(idle);
  });

  it('close() rejects waiters and leaves no timer behind', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const scheduler = new HostScheduler({ perHostConcurrency: 2, delayMs: 10_000 });
    const release = await scheduler.acquire('a');
    const waiting = [scheduler.acquire('a'), scheduler.acquire('a')]; // both wait ~10 s, one timer
    await sleep(0);
    expect(scheduler.load('a')).toEqual({ active: 1, waiting: 2 });
    expect(timers()).toBe(before + 1);
    scheduler.close();
    for (const promise of waiting) await expect(promise).rejects.toBeInstanceOf(HostSchedulerClosedError);
    expect(timers()).toBe(before);
    release(); // the slot held across close: harmless, sets nothing
    expect(timers()).toBe(before);
    expect(scheduler.load('a')).toEqual({ active: 0, waiting: 0 });
    await expect(scheduler.acquire('c')).rejects.toBeInstanceOf(HostSchedulerClosedError);
  });

  it('backOff holds every new start to the host until the hold has passed, never shortening it', async () => {
    const scheduler = new HostScheduler({ perHostConcurrency: 2, delayMs: 0 });
    const t0 = performance.now();
    scheduler.backOff('a', 200);
    scheduler.backOff('a', 50); // a shorter hold does not shorten the first
    const { starts } = await run(scheduler, [{ host: 'a', label: '1' }, { host: 'a', label: '2' }]);
    expect(starts[0]!.at - t0).toBeGreaterThanOrEqual(199);
    const releaseB = await scheduler.acquire('b'); // another host is not held
    expect(performance.now() - t0).toBeLessThan(1_000);
    releaseB();
    scheduler.close();
  });

  it('rejects nonsense options', () => {
    expect(() => new HostScheduler({ perHostConcurrency: 0, delayMs: 0 })).toThrow(/perHostConcurrency/);
    expect(() => new HostScheduler({ perHostConcurrency: 1, delayMs: -1 })).toThrow(/delayMs/);
  });
});

describe('HostScheduler in front of fetchPage', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await closeSharedAgents();
    await server.close();
  });

  it('spaces the requests the server receives', async () => {
    const scheduler = new HostScheduler({ perHostConcurrency: 2, delayMs: 300 });
    const host = new URL(server.origin).host;
    const granted: number[] = [];
    await Promise.all(
      [1, 2, 3].map(async (i) => {
        const release = await scheduler.acquire(host);
        granted.push(performance.now());
        try {
          return await fetchPage(`${server.origin}/site/a?spaced=${i}`, DEFAULT_FETCH_OPTIONS);
        } finally {
          release();
        }
      }),
    );
    // The scheduler's grants are spaced by the delay. Measured here, a gap is shorter by however
    // late the earlier grant's continuation ran (a busy event loop in CI: 295.6 ms seen once), and
    // a timer may fire a millisecond early on rounding; a scheduler that did not space at all
    // would show gaps of a few ms.
    expect(granted[1]! - granted[0]!).toBeGreaterThanOrEqual(270);
    expect(granted[2]! - granted[1]!).toBeGreaterThanOrEqual(270);
    // What the server saw: arrival gaps shrink by however late a request left the client (a
    // connection set-up, a busy machine); 200 ms of slack covers that, and a scheduler that did
    // not space at all would show gaps of a few ms.
    const arrivals = server.requests.filter((r) => r.path.startsWith('/site/a?spaced')).map((r) => r.at);
    expect(arrivals).toHaveLength(3);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(100);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(100);
  });
});
