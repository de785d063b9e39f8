/**
 * One page's life in the content script: ask whether to run (while the page still loads), send
 * the page's first links as soon as it is parsed, extract the rest in slices, send link batches
 * (as the walk finalizes them on a page opened at its top, else visible first; capped), paint
 * the verdicts a bounded number per animation frame, pick up links added later, and answer the
 * background's refresh / clear / summary.
 *
 * Everything the session touches outside the DOM comes in through `SessionEnv` (the message
 * sender, the idle and frame schedulers, the text lookup), so tests drive it under happy-dom
 * with plain functions; index.ts passes the browser's.
 *
 * Work is serialised on one promise chain, and every run carries a generation number: a
 * refresh or clear bumps it, and an older run stops at its next checkpoint.
 */
import type { BackgroundToContent, BackgroundToContentReplies } from '../messages/background-to-content.ts';
import type { PageSettings } from '../messages/page-settings.ts';
import type { LinkVerdict, PageVerdict, SentLink } from '../messages/page-links.ts';
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { ContentSend } from '../messages/send.ts';
import type { Translate } from '../ui/i18n.ts';
import { watchAddedLinks } from './added-links.ts';
import { documentParsed } from './dom-ready.ts';
import { BatchSender } from './batch-sender.ts';
import { extractionSteps, leadingLinks, leadingLinksSoFar, streamingExtractionSteps, TOO_FAR, type ExtractedLink } from './extract-links.ts';
import { attachHover, HOVER_DELAY_MS } from './hover.ts';
import { CANCELLED, DEFAULT_IDLE_BUDGET_MS, runWhenIdle, type RequestIdle } from './idle.ts';
import { LinkRegistry } from './link-registry.ts';
import { clearHighlights, type RequestFrame } from './paint.ts';
import { DEFAULT_PAINT_PER_FRAME, PaintQueue } from './paint-queue.ts';
import { Tooltip } from './tooltip.ts';
import { visibleFirst, type Viewport } from './visibility.ts';

/**
 * Milliseconds between two looks for the page's first links while it is parsed and holds fewer
 * than three. Short, because what it races is the page's first frame: the parser builds a page
 * in chunks of about 10 ms, and a frame of the whole page so far (200–260 ms of layout on the
 * bench's 5,000-link page) may follow any chunk; a look that falls after that frame sends the
 * first links that much later. With the settings published (page-settings.ts) they are there
 * before the parser has built any link, and at 10 ms the first look after the first links came
 * behind that frame in most runs (first batch at 230–550 ms against 64–120 ms when the settings
 * came by a round trip, issue 14's traces). A look while nothing is parsed is a walk of a few
 * nodes; timers nest to 4 ms in Chromium.
 */
export const LEADING_CHECK_MS = 1;

export interface SessionEnv {
  doc: Document;
  send: ContentSend;
  t: Translate;
  requestIdle: RequestIdle;
  /**
   * Slices for the page's first extraction, which the user is waiting for (idle.ts
   * `promptRequester`). Default `requestIdle`. Links added later always wait for idle time.
   */
  requestSoon?: RequestIdle;
  requestFrame: RequestFrame;
  /**
   * The page's settings as the background published them for content scripts
   * (messages/page-settings.ts), or null when it has not: the first run takes them from here
   * rather than asking 'page/settings', so its first links need not wait for a round trip to
   * the background. A refresh always asks (it comes because something changed). Default none.
   */
  publishedSettings?: () => Promise<PageSettings | null>;
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
  /**
   * Links sent as soon as the page is parsed (`dom-ready.ts`), before its first layout, when the
   * session started while the page was being parsed: the first in page order (see `start`).
   * Default 100; 0 never (and then the rest goes visible first too).
   */
  leadingLinks?: number;
  /** Links in the first ranked 'page/links' message (the links in view come first). Default 100. */
  linksPerMessage?: number;
  /** Links in each later message. Default 500 (the background takes up to 1,000). */
  laterLinksPerMessage?: number;
  /** Messages waiting for their verdicts at once (after the page's first). Default 3. */
  requestsInFlight?: number;
  /** DOM nodes per extraction step. Default the shared walker's. */
  domBatch?: number;
  /** Milliseconds per idle slice. Default 8. */
  budgetMs?: number;
  /** Quiet time before links added later are extracted. Default 400 ms. */
  debounceMs?: number;
  /** Verdicts painted in one animation frame at most (paint-queue.ts). Default 500. */
  paintPerFrame?: number;
}


export class PageSession {
  readonly registry = new LinkRegistry();
  readonly #env: SessionEnv;
  readonly #options: Required<SessionOptions>;
  readonly #tooltip: Tooltip;
  readonly #paints: PaintQueue;
  #settings: PageSettings | null = null;
  /** The contexts of the links lit, as sent: their explanations are asked for on hover. */
  readonly #litContexts = new Map<number, SentLink>();
  /** The first run may take the published settings (`SessionEnv.publishedSettings`). */
  #firstRun = true;
  #generation = 0;
  #chain: Promise<void> = Promise.resolve();
  #stopWatching: (() => void) | undefined;
  #stopHover: (() => void) | undefined;

  constructor(env: SessionEnv, options: SessionOptions = {}) {
    this.#env = env;
    this.#options = {
      leadingLinks: options.leadingLinks ?? 100,
      linksPerMessage: options.linksPerMessage ?? 100,
      laterLinksPerMessage: options.laterLinksPerMessage ?? 500,
      requestsInFlight: options.requestsInFlight ?? 3,
      domBatch: options.domBatch ?? 256,
      budgetMs: options.budgetMs ?? DEFAULT_IDLE_BUDGET_MS,
      debounceMs: options.debounceMs ?? 400,
      paintPerFrame: options.paintPerFrame ?? DEFAULT_PAINT_PER_FRAME,
    };
    this.#tooltip = new Tooltip(env.doc, env.t);
    this.#paints = new PaintQueue(this.registry, env.requestFrame, this.#options.paintPerFrame);
  }

  /** Whether the last 'page/settings' reply let the session run. */
  get enabled(): boolean {
    return this.#settings?.enabled === true;
  }

  /**
   * Starts (or restarts, on refresh) the page: settings, then every link.
   *
   * Started while the page is still being parsed (index.ts runs at document_start), the
   * settings are read (published, else asked for) meanwhile, so they are there when the page is. A page opened at its
   * top then sends its links in page order as the walk finalizes them (`#streamLinks`). A URL
   * with a fragment (opened further down), a refresh or a script injected late extracts the
   * whole page in `requestSoon` slices and sends its links ranked visible first (which needs the
   * layout), in batches (`#sendAll`).
   */
  start(): Promise<void> {
    const generation = ++this.#generation;
    const parsing = this.#env.doc.readyState === 'loading';
    const published = this.#firstRun ? this.#env.publishedSettings : undefined;
    this.#firstRun = false;
    return this.#enqueue(async () => {
      const settings = (await published?.().catch(() => null)) ?? (await this.#env.send({ type: 'page/settings', pageUrl: this.#env.pageUrl() }));
      if (generation !== this.#generation) return;
      this.#settings = settings;
      if (!settings.enabled) {
        this.#stop();
        clearHighlights(this.#env.doc, this.registry);
        return;
      }
      if (parsing && this.#options.leadingLinks > 0 && !this.#env.pageUrl().includes('#')) {
        await this.#streamLinks(generation);
        return;
      }
      await documentParsed(this.#env.doc);
      if (generation !== this.#generation) return;
      this.#watch();
      const links = await this.#idle(extractionSteps(this.#env.doc, this.#env.pageUrl(), this.#extractOptions()), generation, true);
      if (links === CANCELLED) return;
      await this.#sendAll(links, generation, true, true);
    });
  }

  /**
   * A page opened at its top: its first links in page order (`leadingLinks`, a walk of a few
   * hundred nodes that needs no layout) go as the page's first message as soon as the parser
   * has built them (`#leadWhileParsing`), usually before the page is parsed. Then, once it is
   * parsed, the page is walked in `requestSoon` slices, and its links go `laterLinksPerMessage`
   * at a time as the walk finalizes them (`streamingExtractionSteps`), `requestsInFlight` at
   * once, so the Worker scores while the page is still being walked rather than after.
   *
   * Why while parsing: the task in which the parser finishes also fires DOMContentLoaded and
   * load and lays the whole page out (185–210 ms of Layout on the bench's 1,000-link page),
   * and nothing of ours runs before it ends. Links sent before it are scored meanwhile, and
   * their verdicts are painted in the first frame after it (bench/extension-bench.ts).
   *
   * Why page order rather than visible first here: on a page at its top, the links in view are
   * the first ones in page order but for content placed out of flow, and ranking needs every
   * link's box, so the whole walk and a layout, before the first batch could go. What it costs:
   * past the per-page cap, the links dropped are the last in page order, not the farthest from
   * view (a hidden link early in the page is admitted before a visible one late in it); and a
   * page whose own script scrolls it at once gets its links in view after those above them.
   */
  async #streamLinks(generation: number): Promise<void> {
    const painted: Promise<void>[] = [];
    const lead = await this.#leadWhileParsing(generation);
    if (lead === CANCELLED) return;
    const sender = this.#sender(generation, true, lead.length > 0 ? lead.length : this.#options.linksPerMessage, painted);
    sender.add(this.#admit(lead));
    sender.flush();
    await documentParsed(this.#env.doc);
    if (generation !== this.#generation) return;
    this.#watch();
    // The walk passes the leading links again. They went already, unless the page changed them
    // after they were taken (markup the parser repaired, a page script): then they go again.
    let checked = 0;
    const steps = streamingExtractionSteps(this.#env.doc, this.#env.pageUrl(), this.#extractOptions(), (links) => {
      let fresh = links;
      if (checked < lead.length) {
        const ahead = links.slice(0, lead.length - checked);
        fresh = ahead.filter((link, i) => !sameLink(link, lead[checked + i]!)).concat(links.slice(ahead.length));
        checked += ahead.length;
      }
      if (fresh.length > 0) sender.add(this.#admit(fresh));
    });
    const walked = await this.#idle(
      (function* () {
        // A failed message fails the run: no point walking on.
        while (!sender.failed && !steps.next().done) yield;
      })(),
      generation,
      true,
    );
    if (walked === CANCELLED) return;
    await this.#settle(sender, generation, painted);
  }

  /**
   * The page's first links in page order (`leadingLinks`): from what the parser has built so
   * far as soon as it holds some (`leadingLinksSoFar`, checked every `LEADING_CHECK_MS`), else
   * from the parsed page (a page with fewer links, or whose first links are far in).
   */
  async #leadWhileParsing(generation: number): Promise<ExtractedLink[] | typeof CANCELLED> {
    const { doc } = this.#env;
    for (;;) {
      if (generation !== this.#generation) return CANCELLED;
      if (doc.readyState !== 'loading') return this.#leadingLinks();
      const count = Math.min(this.#options.leadingLinks, this.#settings?.maxLinks ?? 0);
      const lead = leadingLinksSoFar(doc, this.#env.pageUrl(), count, this.#extractOptions());
      if (lead === TOO_FAR) {
        await documentParsed(doc);
      } else if (lead !== null) {
        return lead;
      } else {
        await new Promise((resolve) => setTimeout(resolve, LEADING_CHECK_MS));
      }
    }
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
    this.#litContexts.clear();
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

  #idle<T>(steps: Generator<void, T, void>, generation: number, soon = false): Promise<T | typeof CANCELLED> {
    return runWhenIdle(steps, {
      requestIdle: soon ? (this.#env.requestSoon ?? this.#env.requestIdle) : this.#env.requestIdle,
      budgetMs: this.#options.budgetMs,
      cancelled: () => generation !== this.#generation,
    });
  }

  /**
   * Orders `links` visible first, admits them up to the per-page cap, and sends them in
   * batches: first the links in view (`linksPerMessage`), so their verdicts come back and
   * are painted soonest, then `laterLinksPerMessage` at a time, so a 5,000-link page costs 11
   * round trips and paint frames rather than 50 (each frame costs the page several ms however
   * few links change; see bench/extension-bench.ts). Later batches go `requestsInFlight` at a
   * time: a batch's round trip (to the background, the Worker and back) was about 50 ms on
   * that bench, of which the Worker's scoring was under half, so one request at a time left
   * the Worker idle between batches (issue 14's profile). With `first`, the first batch is the
   * page's first message and goes alone (it carries the title, and the background records the
   * page with it); otherwise it needs no head start: the Worker takes its calls in order, so it
   * is still scored first. Verdicts go to the paint queue (paint-queue.ts: at most
   * `paintPerFrame` a frame, in the order they came), without waiting for their frame to send
   * the next batch. Resolves (and calls `settled`) once every batch's verdicts are painted.
   * `soon`: the ranking runs in `requestSoon` slices (the page's first extraction).
   */
  async #sendAll(links: readonly ExtractedLink[], generation: number, first: boolean, soon = false): Promise<void> {
    const ordered = await this.#idle(visibleFirst(links, (link) => link.element, this.#env.viewport()), generation, soon);
    if (ordered === CANCELLED) return;
    const painted: Promise<void>[] = [];
    const sender = this.#sender(generation, first, this.#options.linksPerMessage, painted);
    sender.add(this.#admit(ordered));
    await this.#settle(sender, generation, painted);
  }

  /**
   * The run's 'page/links' messages (batch-sender.ts): the first of `firstSize` links, then
   * `laterLinksPerMessage` at a time, `requestsInFlight` at once; when `firstIsPages`, the first
   * is the page's first message (it carries the title, and the background records the page with
   * it), and the others wait for its reply. Each reply's verdicts are painted as they come
   * (`#sendBatch`, into `painted`).
   */
  #sender(generation: number, firstIsPages: boolean, firstSize: number, painted: Promise<void>[]): BatchSender<SentLink> {
    const { laterLinksPerMessage, requestsInFlight } = this.#options;
    return new BatchSender<SentLink>({
      send: (batch, first) => this.#sendBatch(batch, generation, first && firstIsPages, painted),
      firstSize,
      size: laterLinksPerMessage,
      inFlight: Math.max(1, requestsInFlight),
      firstIsPages,
      current: () => generation === this.#generation,
    });
  }

  /**
   * No more links for `sender`: once every message has its verdicts and they are painted, the
   * page is settled (`settled`). Rejects with a failed message's error; the run fails as one.
   */
  async #settle(sender: BatchSender<SentLink>, generation: number, painted: Promise<void>[]): Promise<void> {
    const current = () => generation === this.#generation;
    sender.end();
    await sender.drained();
    if (!current()) return;
    await Promise.all(painted);
    if (current()) this.#env.settled?.(this.registry.totals());
  }

  /**
   * Sends one batch and, when its verdicts come, paints them in the next animation frame (the
   * page's first verdicts while it is still being parsed: at once) (the promise of that goes
   * into `painted`) and reports the page's totals for the badge. Resolves
   * when the verdicts have come, not when they are painted.
   */
  async #sendBatch(batch: SentLink[], generation: number, first: boolean, painted: Promise<void>[]): Promise<void> {
    const current = () => generation === this.#generation;
    if (!current()) return;
    const pageUrl = this.#env.pageUrl();
    const reply = await this.#env.send({ type: 'page/links', pageUrl, ...(first ? { title: this.#env.doc.title } : {}), links: batch, first });
    if (!current()) return;
    this.#keepLitContexts(batch, reply.verdicts);
    // The page's first verdicts while it is still being parsed: painted at once (paintNow).
    const now = first && this.#env.doc.readyState === 'loading';
    painted.push(
      (now ? this.#paints.paintNow(reply.verdicts, current) : this.#paints.paint(reply.verdicts, current)).then(() => {
        // While more verdicts wait for frames, the next paint will report a newer count.
        if (!current() || this.#paints.waiting > 0) return;
        const { onTopic, total } = this.registry.totals();
        // The badge is a courtesy: a lost count must not stop the page's painting.
        this.#env.send({ type: 'page/count', pageUrl, onTopic, total }).catch(() => undefined);
      }),
    );
  }

  /** Keeps the contexts of the links `verdicts` light (and forgets those they no longer do). */
  #keepLitContexts(batch: readonly SentLink[], verdicts: readonly PageVerdict[]): void {
    let byRef: Map<number, SentLink> | undefined;
    for (const verdict of verdicts) {
      if (verdict.level === 0) {
        this.#litContexts.delete(verdict.ref);
        continue;
      }
      byRef ??= new Map(batch.map((link) => [link.ref, link]));
      const link = byRef.get(verdict.ref);
      if (link !== undefined) this.#litContexts.set(verdict.ref, link);
    }
  }

  /** A lit link's features, scored again from the context it was sent with ('link/explain'). */
  async #explain(element: Element): Promise<LinkVerdict['top'] | null> {
    const ref = this.registry.refOf(element);
    const link = ref === undefined ? undefined : this.#litContexts.get(ref);
    if (link === undefined) return null;
    return (await this.#env.send({ type: 'link/explain', pageUrl: this.#env.pageUrl(), link })).top;
  }

  /** The page's first links in page order, before any layout (see `start`). */
  #leadingLinks(): ExtractedLink[] {
    const count = Math.min(this.#options.leadingLinks, this.#settings?.maxLinks ?? 0);
    return leadingLinks(this.#env.doc, this.#env.pageUrl(), count, this.#extractOptions());
  }

  /** Known links always; new ones while the registry is under the page's cap. */
  #admit(links: readonly ExtractedLink[]): SentLink[] {
    const cap = this.#settings?.maxLinks ?? 0;
    const admitted: SentLink[] = [];
    for (const { element, context } of links) {
      if (!this.registry.has(element) && this.registry.size >= cap) continue;
      admitted.push(sentLink(context, this.registry.register(element)));
    }
    return admitted;
  }

  #watch(): void {
    const { doc } = this.#env;
    this.#stopHover ??= attachHover(doc, this.registry, this.#tooltip, HOVER_DELAY_MS, (link) => this.#explain(link));
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

/**
 * A context as it goes to the background: without `pageUrl` (the background takes the page from
 * the sender), fields copied one by one rather than by spreading, which is cheaper per link.
 */
function sentLink(context: LinkContext, ref: number): SentLink {
  const link: SentLink = { ref, url: context.url, anchor: context.anchor, before: context.before, after: context.after };
  if (context.nofollow) link.nofollow = true;
  return link;
}

/** The same element with the same context (what `sentLink` sends of it). */
function sameLink(a: ExtractedLink, b: ExtractedLink): boolean {
  const x = a.context;
  const y = b.context;
  return a.element === b.element && x.url === y.url && x.anchor === y.anchor && x.before === y.before && x.after === y.after && x.nofollow === y.nofollow;
}
