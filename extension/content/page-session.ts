/**
 * One page's life in the content script: ask whether to run, extract in idle slices, send link
 * batches (visible first, capped), paint each batch's verdicts in one animation frame, pick up
 * links added later, and answer the background's refresh / clear / summary.
 *
 * Everything the session touches outside the DOM comes in through `SessionEnv` (the message
 * sender, the idle and frame schedulers, the text lookup), so tests drive it under happy-dom
 * with plain functions; index.ts passes the browser's.
 *
 * Work is serialised on one promise chain, and every run carries a generation number: a
 * refresh or clear bumps it, and an older run stops at its next checkpoint.
 */
import type { BackgroundToContent, BackgroundToContentReplies } from '../messages/background-to-content.ts';
import type { ContentToBackgroundReplies } from '../messages/content-to-background.ts';
import type { PageLink } from '../messages/page-links.ts';
import type { ContentSend } from '../messages/send.ts';
import type { Translate } from '../ui/i18n.ts';
import { watchAddedLinks } from './added-links.ts';
import { extractionSteps, type ExtractedLink } from './extract-links.ts';
import { attachHover } from './hover.ts';
import { CANCELLED, DEFAULT_IDLE_BUDGET_MS, runWhenIdle, type RequestIdle } from './idle.ts';
import { LinkRegistry } from './link-registry.ts';
import { clearHighlights, paintInFrame, type RequestFrame } from './paint.ts';
import { Tooltip } from './tooltip.ts';
import { visibleFirst, type Viewport } from './visibility.ts';

export interface SessionEnv {
  doc: Document;
  send: ContentSend;
  t: Translate;
  requestIdle: RequestIdle;
  requestFrame: RequestFrame;
  /** The page's current URL (a single-page app changes it without a reload). */
  pageUrl: () => string;
  viewport: () => Viewport;
  /**
   * Called when a run has painted the verdicts of every link it sent (also when it sent none),
   * with the page's running totals. index.ts leaves one User Timing mark (`SETTLED_MARK`), so a
   * page, DevTools or the benchmark can see when every link has a verdict, painted or not.
   */
  settled?: (totals: { onTopic: number; total: number }) => void;
}

export interface SessionOptions {
  /** Links in a page's first 'page/links' message (the links in view come first). Default 100. */
  linksPerMessage?: number;
  /** Links in each later message. Default 500 (the background takes up to 1,000). */
  laterLinksPerMessage?: number;
  /** Later messages waiting for their verdicts at once. Default 2. */
  requestsInFlight?: number;
  /** DOM nodes per extraction step. Default the shared walker's. */
  domBatch?: number;
  /** Milliseconds per idle slice. Default 8. */
  budgetMs?: number;
  /** Quiet time before links added later are extracted. Default 400 ms. */
  debounceMs?: number;
}

type PageSettings = ContentToBackgroundReplies['page/settings'];

export class PageSession {
  readonly registry = new LinkRegistry();
  readonly #env: SessionEnv;
  readonly #options: Required<SessionOptions>;
  readonly #tooltip: Tooltip;
  #settings: PageSettings | null = null;
  #generation = 0;
  #chain: Promise<void> = Promise.resolve();
  #stopWatching: (() => void) | undefined;
  #stopHover: (() => void) | undefined;

  constructor(env: SessionEnv, options: SessionOptions = {}) {
    this.#env = env;
    this.#options = {
      linksPerMessage: options.linksPerMessage ?? 100,
      laterLinksPerMessage: options.laterLinksPerMessage ?? 500,
      requestsInFlight: options.requestsInFlight ?? 2,
      domBatch: options.domBatch ?? 256,
      budgetMs: options.budgetMs ?? DEFAULT_IDLE_BUDGET_MS,
      debounceMs: options.debounceMs ?? 400,
    };
    this.#tooltip = new Tooltip(env.doc, env.t);
  }

  /** Whether the last 'page/settings' reply let the session run. */
  get enabled(): boolean {
    return this.#settings?.enabled === true;
  }

  /** Starts (or restarts, on refresh) the page: settings, then every link, visible first. */
  start(): Promise<void> {
    const generation = ++this.#generation;
    return this.#enqueue(async () => {
      const settings = await this.#env.send({ type: 'page/settings', pageUrl: this.#env.pageUrl() });
      if (generation !== this.#generation) return;
      this.#settings = settings;
      if (!settings.enabled) {
        this.#stop();
        clearHighlights(this.#env.doc, this.registry);
        return;
      }
      this.#watch();
      const links = await this.#idle(extractionSteps(this.#env.doc, this.#env.pageUrl(), this.#extractOptions()), generation);
      if (links === CANCELLED) return;
      await this.#sendAll(links, generation, true);
    });
  }

  /** Answers one background → content message. */
  handle<M extends BackgroundToContent>(message: M): Promise<BackgroundToContentReplies[M['type']]> {
    switch (message.type) {
      case 'verdicts/refresh':
        void this.start().catch(() => this.#stop());
        return Promise.resolve({ ok: true } as BackgroundToContentReplies[M['type']]);
      case 'highlight/clear':
        this.clear();
        return Promise.resolve({ ok: true } as BackgroundToContentReplies[M['type']]);
      case 'page/summary':
        return Promise.resolve(this.registry.totals() as BackgroundToContentReplies[M['type']]);
      default:
        return Promise.reject(new Error(`unknown message ${(message as { type: string }).type}`));
    }
  }

  /** Removes every highlight and stops work until the next `start`. */
  clear(): void {
    this.#generation++;
    this.#stop();
    clearHighlights(this.#env.doc, this.registry);
  }

  /** Tears the session down (the content script is going away). */
  destroy(): void {
    this.clear();
    this.#tooltip.destroy();
  }

  /** Extracts and sends the links of subtrees added after load (never contexts across them). */
  addRoots(roots: readonly Element[]): Promise<void> {
    const generation = this.#generation;
    return this.#enqueue(async () => {
      const settings = this.#settings;
      if (settings === null || !settings.enabled || generation !== this.#generation) return;
      // At the cap no new link would be admitted: spare the page the walk.
      if (this.registry.size >= settings.maxLinks) return;
      const options = { ...this.#extractOptions(), baseUrl: this.#env.doc.baseURI };
      const pageUrl = this.#env.pageUrl();
      const { registry } = this;
      const links = await this.#idle(
        (function* () {
          const found: ExtractedLink[] = [];
          for (const root of roots) {
            if (!root.isConnected) continue;
            for (const link of yield* extractionSteps(root, pageUrl, options)) {
              if (!registry.has(link.element)) found.push(link);
            }
          }
          return found;
        })(),
        generation,
      );
      if (links === CANCELLED || links.length === 0) return;
      await this.#sendAll(links, generation, false);
    });
  }

  #extractOptions(): { window: number; domBatch: number } {
    return { window: this.#settings?.window ?? 80, domBatch: this.#options.domBatch };
  }

  #idle<T>(steps: Generator<void, T, void>, generation: number): Promise<T | typeof CANCELLED> {
    return runWhenIdle(steps, {
      requestIdle: this.#env.requestIdle,
      budgetMs: this.#options.budgetMs,
      cancelled: () => generation !== this.#generation,
    });
  }

  /**
   * Orders `links` visible first, admits them up to the per-page cap, and sends them in
   * batches: first the links in view (`linksPerMessage`) alone, so their verdicts come back and
   * are painted soonest, then `laterLinksPerMessage` at a time, so a 5,000-link page costs 11
   * round trips and paint frames rather than 50 (each frame costs the page several ms however
   * few links change; see bench/extension-bench.ts). Later batches go `requestsInFlight` at a
   * time: a batch's round trip (to the background, the Worker and back) was about 50 ms on
   * that bench, of which the Worker's scoring was under half, so one request at a time left
   * the Worker idle between batches (issue 14's profile). Each batch's verdicts are painted in
   * one animation frame, without waiting for that frame to send the next; replies that arrive
   * within one frame are painted in it together.
   */
  async #sendAll(links: readonly ExtractedLink[], generation: number, first: boolean): Promise<void> {
    const ordered = await this.#idle(visibleFirst(links, (link) => link.element, this.#env.viewport()), generation);
    if (ordered === CANCELLED) return;
    const admitted = this.#admit(ordered);
    const { linksPerMessage, laterLinksPerMessage, requestsInFlight } = this.#options;
    const current = () => generation === this.#generation;
    const batches: PageLink[][] = [];
    for (let start = 0, size = linksPerMessage; start < admitted.length; start += size, size = laterLinksPerMessage) {
      batches.push(admitted.slice(start, start + size));
    }
    const painted: Promise<void>[] = [];
    const sendBatch = async (batch: PageLink[], firstOfPage: boolean): Promise<void> => {
      if (!current()) return;
      const pageUrl = this.#env.pageUrl();
      const reply = await this.#env.send({ type: 'page/links', pageUrl, title: this.#env.doc.title, links: batch, first: firstOfPage });
      if (!current()) return;
      painted.push(
        paintInFrame(this.registry, reply.verdicts, this.#env.requestFrame, current).then(() => {
          if (!current()) return;
          const { onTopic, total } = this.registry.totals();
          // The badge is a courtesy: a lost count must not stop the page's painting.
          this.#env.send({ type: 'page/count', pageUrl, onTopic, total }).catch(() => undefined);
        }),
      );
    };
    if (batches.length > 0) await sendBatch(batches[0]!, first);
    let next = 1;
    let failed = false;
    const lane = async (): Promise<void> => {
      try {
        while (next < batches.length && current() && !failed) await sendBatch(batches[next++]!, false);
      } catch (error) {
        failed = true; // the other lane stops too: the run fails as one, as a single request did
        throw error;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, requestsInFlight) }, lane));
    if (!current()) return;
    await Promise.all(painted);
    if (current()) this.#env.settled?.(this.registry.totals());
  }

  /** Known links always; new ones while the registry is under the page's cap. */
  #admit(links: readonly ExtractedLink[]): PageLink[] {
    const cap = this.#settings?.maxLinks ?? 0;
    const admitted: PageLink[] = [];
    for (const { element, context } of links) {
      if (!this.registry.has(element) && this.registry.size >= cap) continue;
      admitted.push({ ...context, ref: this.registry.register(element) });
    }
    return admitted;
  }

  #watch(): void {
    const { doc } = this.#env;
    this.#stopHover ??= attachHover(doc, this.registry, this.#tooltip);
    if (this.#stopWatching !== undefined || doc.documentElement === null) return;
    this.#stopWatching = watchAddedLinks(
      doc.documentElement,
      (element) => this.registry.has(element),
      (roots) => void this.addRoots(roots).catch(() => undefined),
      { debounceMs: this.#options.debounceMs },
    );
  }

  #stop(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
    this.#stopHover?.();
    this.#stopHover = undefined;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.#chain.then(work);
    // The chain itself never rejects, so one failed run does not block the next.
    this.#chain = run.catch(() => undefined);
    return run;
  }
}
