/**
 * The host budget: traps that cost budget, not only depth (issue 11). A host whose pages are all
 * judged off topic gets a shrinking share of the fetches: after every `pagesPerStep` pages
 * fetched from it without one on-topic page, its queued URLs drop one step, `STEP` below where
 * they were, and so do the URLs found for it later. An endless calendar or a forum linked from
 * the start page thus spends `pagesPerStep` pages, then waits behind everything else, then
 * another `pagesPerStep` once the rest has run out, and so on: bounded in share, never dropped.
 * The first on-topic page of a host lifts every step it had taken.
 *
 * URL-shape checks (`traps.ts`) catch what loops in the URL; the depth limit what runs deep.
 * This catches what neither does: a wide space that is simply not the topic. It needs pages to
 * be judged (`page-judgement.ts`); hosts with no judged page are never lowered.
 *
 * The steps are kept in the store's meta table (key `hostBudget`) in the same transaction as the
 * rows they moved, so a resumed crawl neither repeats nor forgets a demotion.
 */
import type { CrawlStore } from '../store/crawl-store.ts';

/** How far one step lowers a host's URLs: below a whole band of the nb strategy (kept and sent back). */
export const STEP = 2;

/** Pages a host may have with no on-topic page before each step. */
export const DEFAULT_PAGES_PER_STEP = 25;

const META_KEY = 'hostBudget';

interface HostTally {
  fetched: number;
  onTopic: number;
}

/** The host's penalty as the crawl stored it (for a reader of a crawl, not the crawl itself). */
export function storedHostPenalty(store: CrawlStore, host: string): number {
  const steps = store.getMeta<Record<string, number>>(META_KEY) ?? {};
  return Object.hasOwn(steps, host) ? STEP * steps[host]! : 0;
}

export class HostBudget {
  readonly #tally: Map<string, HostTally>;
  readonly #steps: Map<string, number>;

  constructor(
    private readonly store: CrawlStore,
    private readonly pagesPerStep: number,
    relevanceThreshold: number,
  ) {
    if (!Number.isInteger(pagesPerStep) || pagesPerStep < 1) throw new RangeError(`host budget: pages per step must be a whole number ≥ 1, got ${pagesPerStep}`);
    this.#tally = store.judgedCountsByHost(relevanceThreshold);
    this.#steps = new Map(Object.entries(store.getMeta<Record<string, number>>(META_KEY) ?? {}));
  }

  /** How far below its value a URL of `host` is queued: STEP × the host's steps. */
  penalty(host: string): number {
    return STEP * (this.#steps.get(host) ?? 0);
  }

  /**
   * A page of `host` was recorded: fetched (URLs refused without a request are not), with `onTopic` its
   * judgement (undefined when not judged). Lowers or lifts the host's queued URLs when it
   * crosses a step.
   */
  settled(host: string, onTopic: boolean | undefined): void {
    const tally = this.#tally.get(host) ?? { fetched: 0, onTopic: 0 };
    tally.fetched++;
    if (onTopic) tally.onTopic++;
    this.#tally.set(host, tally);
    const steps = this.#steps.get(host) ?? 0;
    const due = tally.onTopic > 0 ? 0 : Math.floor(tally.fetched / this.pagesPerStep);
    if (due === steps) return;
    const next = new Map(this.#steps);
    if (due === 0) next.delete(host);
    else next.set(host, due);
    this.store.transaction(() => {
      this.store.lowerHost(host, STEP * (due - steps));
      this.store.setMeta(META_KEY, Object.fromEntries(next));
    });
    this.#steps.set(host, due);
    if (due === 0) this.#steps.delete(host);
  }

  /** Hosts lowered now, with their steps (for progress and tests). */
  steps(): ReadonlyMap<string, number> {
    return this.#steps;
  }
}
