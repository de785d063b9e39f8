/**
 * Idle-time work: run a generator's steps only while the page is idle, a few milliseconds at a
 * time, so extraction never competes with the page's own scripts, input or animation.
 *
 * `requestIdleCallback` where the browser has it, else a `setTimeout` that grants one budget
 * per turn. Each slice runs at least one step (so work always progresses) and stops when the
 * budget or the idle deadline is used up; a step's size is a count (DOM nodes, links), set by
 * the producer, so one step stays well under the budget. While the idle period has more than a
 * budget left, the next slice follows in a task of its own (`continueSoon`) rather than in the
 * next idle period, which on a quiet page is up to 50 ms away.
 */

export interface IdleDeadlineLike {
  timeRemaining(): number;
}

export type RequestIdle = (callback: (deadline: IdleDeadlineLike) => void) => void;

/** Default time budget of one idle slice, in milliseconds: half a 60 Hz frame. */
export const DEFAULT_IDLE_BUDGET_MS = 8;

/** Idle callbacks for `win`, with the fallback for browsers without `requestIdleCallback`. */
export function idleRequester(win: Window, budgetMs = DEFAULT_IDLE_BUDGET_MS): RequestIdle {
  if (typeof win.requestIdleCallback === 'function') {
    // The timeout bounds the wait on a page that is never idle; the work then still runs in
    // small slices.
    return (callback) => void win.requestIdleCallback(callback, { timeout: 2000 });
  }
  return (callback) => {
    win.setTimeout(() => {
      const end = performance.now() + budgetMs;
      callback({ timeRemaining: () => Math.max(0, end - performance.now()) });
    }, 16);
  };
}

/** The part of Chromium's `scheduler` (Prioritized Task Scheduling) used here. */
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'background' }): Promise<unknown>;
}

/**
 * Slices for work the user is waiting for (a page's links right after it loaded): each slice
 * in a task of background priority, which runs whenever no other task is waiting, without
 * waiting for an idle period, and granted `budgetMs` from its start. Idle periods come only
 * between frames, and while verdicts are being painted a frame is always pending: on the
 * bench's 5,000-link page the extraction sat up to 50 ms at a time between idle slices. A
 * background task still yields to input, rendering and the page's own tasks between slices.
 * Without `scheduler.postTask` (Firefox before 142), a `setTimeout(0)` task.
 */
export function promptRequester(win: Window, budgetMs = DEFAULT_IDLE_BUDGET_MS): RequestIdle {
  const scheduler = (win as unknown as { scheduler?: TaskScheduler }).scheduler;
  const post: (callback: () => void) => void =
    typeof scheduler?.postTask === 'function'
      ? (callback) => void scheduler.postTask(callback, { priority: 'background' })
      : (callback) => void win.setTimeout(callback, 0);
  return (callback) =>
    post(() => {
      const end = performance.now() + budgetMs;
      callback({ timeRemaining: () => Math.max(0, end - performance.now()) });
    });
}

/** What a run resolves with when its `cancelled()` turned true before it finished. */
export const CANCELLED = Symbol('cancelled');

export interface RunOptions {
  requestIdle: RequestIdle;
  /**
   * Runs the next slice soon, in a task of its own, while the current idle period lasts.
   * Default `setTimeout(…, 0)`.
   */
  continueSoon?: (callback: () => void) => void;
  /** Milliseconds per slice at most. Default `DEFAULT_IDLE_BUDGET_MS`. */
  budgetMs?: number;
  /** Checked before every slice; true stops the run. */
  cancelled?: () => boolean;
  /** Clock, for the budget. Default `performance.now`. */
  now?: () => number;
}

/** Runs `steps` to completion in idle slices; resolves with its return value (or CANCELLED). */
export function runWhenIdle<T>(steps: Generator<void, T, void>, options: RunOptions): Promise<T | typeof CANCELLED> {
  const { requestIdle, budgetMs = DEFAULT_IDLE_BUDGET_MS, cancelled = () => false } = options;
  const continueSoon = options.continueSoon ?? ((callback: () => void) => void setTimeout(callback, 0));
  const now = options.now ?? (() => performance.now());
  return new Promise((resolve, reject) => {
    const slice = (deadline: IdleDeadlineLike): void => {
      if (cancelled()) {
        steps.return(undefined as T);
        resolve(CANCELLED);
        return;
      }
      const end = now() + budgetMs;
      try {
        do {
          const step = steps.next();
          if (step.done) {
            resolve(step.value);
            return;
          }
        } while (now() < end && deadline.timeRemaining() > 1);
      } catch (error) {
        reject(error);
        return;
      }
      // A callback asked for during an idle period only runs in the next one, and when nothing
      // else is going on an idle period lasts up to 50 ms: waiting for it would use 8 ms of
      // every 50. While the period the browser granted has time left, the next slice runs in a
      // task of its own instead, so input, rendering and the page get their turn between slices.
      if (deadline.timeRemaining() > budgetMs) continueSoon(() => slice(deadline));
      else requestIdle(slice);
    };
    requestIdle(slice);
  });
}
