/**
 * Per-host politeness: at most `perHostConcurrency` requests in flight to one host, and at least
 * max(`delayMs`, the host's Crawl-delay) between the starts of two requests to it. Waiters are
 * served first come, first served; nobody polls: a waiter is woken by a release or by one
 * unref'd timer per host set for the moment the next start becomes allowed, so an idle
 * scheduler never keeps the process alive.
 *
 * Usage: `const release = await scheduler.acquire(host, crawlDelay); try { fetch } finally { release() }`.
 */

export interface HostSchedulerOptions {
  /** Requests in flight to one host at once. Default 2. */
  perHostConcurrency: number;
  /** Minimum ms between two request starts to one host; Crawl-delay raises it. Default 500. */
  delayMs: number;
}

export const DEFAULT_HOST_SCHEDULER_OPTIONS: HostSchedulerOptions = Object.freeze({ perHostConcurrency: 2, delayMs: 500 });

interface Waiter {
  crawlDelayMs: number | undefined;
  resolve: (release: () => void) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface HostState {
  active: number;
  /** performance.now() of the last start; -Infinity before the first. */
  lastStart: number;
  /** The most recent Crawl-delay given for this host. */
  crawlDelayMs: number | undefined;
  queue: Waiter[];
  timer: NodeJS.Timeout | undefined;
}

export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();
  private readonly options: HostSchedulerOptions;

  constructor(options: Partial<HostSchedulerOptions> = {}) {
    this.options = { ...DEFAULT_HOST_SCHEDULER_OPTIONS, ...options };
    const { perHostConcurrency, delayMs } = this.options;
    if (!Number.isInteger(perHostConcurrency) || perHostConcurrency < 1) {
      throw new RangeError(`perHostConcurrency must be a whole number ≥ 1, got ${perHostConcurrency}`);
    }
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new RangeError(`delayMs must be ≥ 0, got ${delayMs}`);
  }

  /**
   * Resolves, in arrival order per host, with a release function once this request may start.
   * `crawlDelayMs` (from robots.txt) raises the spacing for this host from now on. If `signal`
   * aborts while waiting, the promise rejects with its reason and the place is given up.
   */
  acquire(host: string, crawlDelayMs?: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const state = this.state(host);
    if (crawlDelayMs !== undefined) state.crawlDelayMs = crawlDelayMs;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { crawlDelayMs, resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const at = state.queue.indexOf(waiter);
          if (at >= 0) state.queue.splice(at, 1);
          reject(signal.reason);
          this.pump(host, state);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      state.queue.push(waiter);
      this.pump(host, state);
    });
  }

  /** Requests in flight and waiting for a host (for progress displays and tests). */
  load(host: string): { active: number; waiting: number } {
    const state = this.hosts.get(host);
    return { active: state?.active ?? 0, waiting: state?.queue.length ?? 0 };
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, lastStart: Number.NEGATIVE_INFINITY, crawlDelayMs: undefined, queue: [], timer: undefined };
      this.hosts.set(host, state);
    }
    return state;
  }

  private gap(state: HostState, waiter: Waiter | undefined): number {
    return Math.max(this.options.delayMs, waiter?.crawlDelayMs ?? state.crawlDelayMs ?? 0);
  }

  /** Starts as many waiters as the rules allow now, and sets a timer for the next one. */
  private pump(host: string, state: HostState): void {
    if (state.timer) {
      clearTimeout(state.timer);
      state.timer = undefined;
    }
    while (state.queue.length > 0 && state.active < this.options.perHostConcurrency) {
      const next = state.queue[0]!;
      const wait = state.lastStart + this.gap(state, next) - performance.now();
      if (wait > 0) {
        // A timer can fire a hair early; pump re-checks and sets another if so.
        state.timer = setTimeout(() => this.pump(host, state), Math.ceil(wait));
        state.timer.unref();
        return;
      }
      state.queue.shift();
      if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
      state.active++;
      state.lastStart = performance.now();
      next.resolve(this.releaser(host, state));
    }
    this.forgetWhenIdle(host, state);
  }

  private releaser(host: string, state: HostState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.active--;
      this.pump(host, state);
    };
  }

  /**
   * Drops an idle host's state once its spacing has passed, so a crawl over a million hosts
   * keeps no record of the ones it is done with.
   */
  private forgetWhenIdle(host: string, state: HostState): void {
    if (state.active > 0 || state.queue.length > 0 || state.timer) return;
    const wait = state.lastStart + this.gap(state, undefined) - performance.now();
    if (wait <= 0) {
      if (this.hosts.get(host) === state) this.hosts.delete(host);
      return;
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.forgetWhenIdle(host, state);
    }, Math.ceil(wait));
    state.timer.unref();
  }
}
