// @vitest-environment happy-dom
/** Idle-time batching: work runs in slices bounded by a step count and a time budget. */
import { describe, expect, it } from 'vitest';
import { CANCELLED, promptRequester, runWhenIdle, type IdleDeadlineLike, type RequestIdle } from '../../../extension/content/idle.ts';

/** A generator of `n` steps that records which slice ran each step. */
function* counted(n: number, log: number[], slice: () => number): Generator<void, string, void> {
  for (let i = 0; i < n; i++) {
    log.push(slice());
    yield;
  }
  return 'done';
}

/**
 * An idle scheduler that runs callbacks on the next macrotask with a given deadline; a slice
 * continued within the same idle period (`continueSoon`) counts as a slice too.
 */
function scheduler(remaining: () => number): {
  requestIdle: RequestIdle;
  continueSoon: (callback: () => void) => void;
  slices: () => number;
  idlePeriods: () => number;
} {
  let slices = 0;
  let idlePeriods = 0;
  return {
    requestIdle: (callback) => {
      setTimeout(() => {
        slices++;
        idlePeriods++;
        const deadline: IdleDeadlineLike = { timeRemaining: remaining };
        callback(deadline);
      }, 0);
    },
    continueSoon: (callback) => {
      setTimeout(() => {
        slices++;
        callback();
      }, 0);
    },
    slices: () => slices,
    idlePeriods: () => idlePeriods,
  };
}

describe('runWhenIdle', () => {
  it('runs exactly one step per slice when the page has no idle time left', async () => {
    const log: number[] = [];
    const idle = scheduler(() => 0);
    const result = await runWhenIdle(counted(5, log, idle.slices), { requestIdle: idle.requestIdle });
    expect(result).toBe('done');
    expect(log).toEqual([1, 2, 3, 4, 5]);
    // The generator's return needs one more call to `next()`.
    expect(idle.slices()).toBe(6);
  });

  it('stops a slice when its time budget is spent', async () => {
    let clock = 0;
    const log: number[] = [];
    const idle = scheduler(() => 50);
    const steps = (function* () {
      for (let i = 0; i < 10; i++) {
        log.push(idle.slices());
        clock += 3; // each step "takes" 3 ms
        yield;
      }
    })();
    await runWhenIdle(steps, { requestIdle: idle.requestIdle, continueSoon: idle.continueSoon, budgetMs: 8, now: () => clock });
    // 8 ms budget, 3 ms steps: three steps fit before the clock passes the slice's end.
    const perSlice = [...new Set(log)].map((slice) => log.filter((s) => s === slice).length);
    expect(perSlice).toEqual([3, 3, 3, 1]);
  });

  it('continues in a task of its own while the idle period lasts, not one slice per period', async () => {
    // Regression (bench/extension-bench.ts): a callback asked for during an idle period runs in
    // the next one, so a page with nothing else to do gave extraction 8 ms of every 50.
    let clock = 0;
    let periodEnd = 0;
    const log: number[] = [];
    const idle = scheduler(() => Math.max(0, periodEnd - clock));
    const requestIdle: RequestIdle = (callback) =>
      idle.requestIdle((deadline) => {
        periodEnd = clock + 50; // a long idle period: 50 ms
        callback(deadline);
      });
    const steps = (function* () {
      for (let i = 0; i < 40; i++) {
        log.push(idle.idlePeriods());
        clock += 3;
        yield;
      }
    })();
    await runWhenIdle(steps, { requestIdle, continueSoon: idle.continueSoon, budgetMs: 8, now: () => clock });
    // Three steps (9 ms) per slice; a period of 50 ms takes slices until less than one budget
    // of it is left (at 45 ms), so 15 steps per period instead of 3.
    const perPeriod = [...new Set(log)].map((period) => log.filter((p) => p === period).length);
    expect(perPeriod).toEqual([15, 15, 10]);
    expect(idle.idlePeriods()).toBe(3);
  });

  it('resolves CANCELLED and runs no further step once cancelled', async () => {
    const log: number[] = [];
    const idle = scheduler(() => 0);
    let cancelled = false;
    const run = runWhenIdle(counted(100, log, idle.slices), { requestIdle: idle.requestIdle, cancelled: () => cancelled });
    await new Promise((resolve) => setTimeout(resolve, 5));
    cancelled = true;
    const seen = log.length;
    expect(await run).toBe(CANCELLED);
    expect(log.length).toBeLessThanOrEqual(seen + 1);
    expect(log.length).toBeLessThan(100);
  });

  it('rejects with the error a step throws', async () => {
    const idle = scheduler(() => 0);
    const steps = (function* (): Generator<void, void, void> {
      yield;
      throw new Error('broken page');
    })();
    await expect(runWhenIdle(steps, { requestIdle: idle.requestIdle })).rejects.toThrow('broken page');
  });
});

describe('promptRequester', () => {
  it('runs each slice as a background-priority task with the budget from its start', async () => {
    const posted: { callback: () => void; priority: string }[] = [];
    const win = { scheduler: { postTask: (callback: () => void, options: { priority: string }) => (posted.push({ callback, ...options }), Promise.resolve()) } };
    const request = promptRequester(win as unknown as Window, 8);
    let remaining = -1;
    request((deadline) => (remaining = deadline.timeRemaining()));
    expect(remaining).toBe(-1); // not before its task
    expect(posted.map((p) => p.priority)).toEqual(['background']);
    posted[0]!.callback();
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(8);
  });

  it('falls back to a timer task where there is no scheduler.postTask', async () => {
    const request = promptRequester(window as unknown as Window, 8);
    const steps = (function* () {
      for (let i = 0; i < 5; i++) yield;
      return 'done';
    })();
    expect(await runWhenIdle(steps, { requestIdle: request })).toBe('done');
  });
});
