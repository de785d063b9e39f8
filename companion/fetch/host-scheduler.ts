/**
 * Per-host politeness: at most `perHostConcurrency` requests in flight to one host, at least
 * max(`delayMs`, the host's Crawl-delay) between the starts of two requests to it, and no start
 * before a hold set by `backOff` (a Retry-After, a retry's backoff) has passed. Waiters are
 * served first come, first served; nobody polls: a waiter is woken by a release or by one timer
 * per host set for the moment the next start becomes allowed.
 *
 * Timers and the process: a timer a request is waiting on is ref'd, because that request is
 * pending work: a crawl whose only work left is waiting out a delay must not be ended by Node
 * (exit 13, "unsettled top-level await"). The timer that later forgets an idle host is unref'd,
 * so an idle scheduler never keeps the process alive. `close()` clears every timer and rejects
 * whoever still waits.
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
  /** performance.now() before which nothing starts (`backOff`); -Infinity when not held back. */
  notBefore: number;
  queue: Waiter[];
  timer: NodeJS.Timeout | undefined;
}

/** The reason given to requests still waiting, or asking, after `close()`. */
export class HostSchedulerClosedError extends Error {
  override readonly name = 'HostSchedulerClosedError';
  constructor() {
    super('the host scheduler is closed');
  }
}

export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();
  private readonly options: HostSchedulerOptions;
  private closed = false;

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
    if (this.closed) return Promise.reject(new HostSchedulerClosedError());
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

  /**
   * Clears every timer and rejects the requests still waiting with `HostSchedulerClosedError`;
   * later `acquire` calls reject the same way. Releasing a slot after close is harmless.
   */
  close(): void {
    this.closed = true;
    for (const state of this.hosts.values()) {
      if (state.timer) clearTimeout(state.timer);
      state.timer = undefined;
      for (const waiter of state.queue.splice(0)) {
        if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
        waiter.reject(new HostSchedulerClosedError());
      }
    }
    this.hosts.clear();
  }

  /**
   * Holds every new start to `host` back until `delayMs` from now: a server's Retry-After, or a
   * retry's backoff (`retry-policy.ts`). Never shortens a hold already set; requests in flight
   * are not touched, and the usual spacing still applies after the hold.
   */
  backOff(host: string, delayMs: number): void {
    if (this.closed || !(delayMs > 0)) return;
    const state = this.state(host);
    state.notBefore = Math.max(state.notBefore, performance.now() + delayMs);
    this.pump(host, state);
  }

  /** Requests in flight and waiting for a host (for progress displays and tests). */
  load(host: string): { active: number; waiting: number } {
    const state = this.hosts.get(host);
    return { active: state?.active ?? 0, waiting: state?.queue.length ?? 0 };
  }

  private state(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, lastStart: Number.NEGATIVE_INFINITY, crawlDelayMs: undefined, notBefore: Number.NEGATIVE_INFINITY, queue: [], timer: undefined };
      this.hosts.set(host, state);
    }
    return state;
  }

  /** performance.now() from which the next request to the host may start. */
  private nextStart(state: HostState, waiter: Waiter | undefined): number {
    const gap = Math.max(this.options.delayMs, waiter?.crawlDelayMs ?? state.crawlDelayMs ?? 0);
    return Math.max(state.lastStart + gap, state.notBefore);
  }

  /** Starts as many waiters as the rules allow now, and sets a timer for the next one. */
  private pump(host: string, state: HostState): void {
    if (state.timer) {
      clearTimeout(state.timer);
      state.timer = undefined;
    }
    if (this.closed) return;
    while (state.queue.length > 0 && state.active < this.options.perHostConcurrency) {
      const next = state.queue[0]!;
      const wait = this.nextStart(state, next) - performance.now();
      if (wait > 0) {
        // A timer can fire a hair early; pump re-checks and sets another if so. It stays ref'd:
        // a request waits on it (see the header).
        state.timer = setTimeout(() => this.pump(host, state), Math.ceil(wait));
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
   * Drops an idle host's state once its spacing (and any hold) has passed, so a crawl over a
   * million hosts keeps no record of the ones it is done with. Its timer is unref'd: nobody
   * waits on it.
   */
  private forgetWhenIdle(host: string, state: HostState): void {
    if (this.closed || state.active > 0 || state.queue.length > 0 || state.timer) return;
    const wait = this.nextStart(state, undefined) - performance.now();
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
