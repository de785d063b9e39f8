/**
 * Online incremental learning during a crawl (issue 11): seed 001's periodic retraining ("after
 * every N communities, add the forward links of the most relevant pages crawled so far to the
 * link classifier's training data"), ACHE's online learning, Chakrabarti et al. 2002's
 * "apprentice" that learns from the crawl's own judgements.
 *
 * Every `every` recorded pages, `update()` turns what the crawl learned into examples:
 *
 *   1. Each newly judged page (`page-judgement.ts`) makes the link that led to it an example
 *      of the link classifier, labelled by the judgement: a link into a page judged on topic is
 *      a positive, one into a page judged off topic a negative (Han et al. 2010's unit, a
 *      labeled link, with the crawl as the labeller).
 *   2. Levels on the crawl's own graph, as its discovery tree (the parent each page was reached
 *      from): the link into an on-topic page is level 0, the link into its parent level 1, into
 *      its grandparent level 2, … up to L − 2. A link already learned at a higher level moves
 *      down (`remove` + `add`), so each keeps the smallest distance the crawl has shown. The tree
 *      is a subgraph of the crawl's graph, so these distances are upper bounds, as `collect`'s
 *      are (`shared/labels/link-levels.ts`); it costs O(L) per on-topic page and no edge table.
 *      Links into pages with no on-topic page found below them get no level: "far" is only
 *      learned from the teaching, where a page's whole neighbourhood was seen.
 *   3. Both classifiers are updated with `add` (never refitted), the examples stored in the
 *      crawl's store in one transaction (`learned_links`), and the best `rescoreTop` queued URLs
 *      scored again with the updated models (`CrawlStrategy.rescore`), so what was learned
 *      reorders the frontier's head without a scan of every queued row.
 *
 * Learning needs judgements that do not come from the model itself: the topic's URL patterns or
 * a page classifier. Judged by its own link score, a crawl would only teach itself its mistakes.
 *
 * On resume the stored examples are replayed into the models (`add` is exact and order-free), so
 * a resumed crawl scores with the models it had when it stopped.
 *
 * On a shared frontier (`shared`, `shared-learning.ts`) several processes learn into one model:
 *
 *   - An update does not `add` to this process's models: it pushes its examples' count
 *     increments (`learning-delta.ts`) to the shared counts, saves them in the store as always,
 *     and refreshes the models from the shared counts (taught model + every process's
 *     increments) when the shared version moved. The refresh comes with each update, every
 *     `every` of this process's pages: the models matter for the frontier through the re-scoring
 *     that follows an update, and links scored between two refreshes are re-scored at the next
 *     one if they reach the head; reading more often would cost a read of the whole shared model
 *     per page for scores that the next re-scoring replaces.
 *   - Re-scoring covers the best `rescoreTop` rows of the shared queue, whoever queued them, not
 *     only this process's links: every process claims from that head, so it must be ordered by
 *     the shared model, and a process cannot tell its rows from the others'. With W processes each
 *     updating every `every` of its pages, the head is re-scored about once per `every` pages of
 *     the whole crawl, as in one process. A new score may be lower (ZADD XX, not GT).
 *   - Levels follow this process's discovery tree: the chain of parents of the pages it recorded.
 *     Where a page's parent was fetched by another process, the chain ends, since the link into
 *     that parent is the other process's example; levels stay upper bounds of the distance, and
 *     fewer links get one than in a single process.
 *   - Push first, local save second: a kill between the two leaves increments pushed for pages
 *     the store has not learned yet. The push is keyed by the store's last learned page, so on
 *     restart `start()` learns those pages again without pushing them, then rebuilds the models
 *     from the shared counts.
 */
import type { LinkContext } from '../../shared/contexts/types.ts';
import type { FeatureVector } from '../../shared/features/types.ts';
import type { LevelClassifier } from '../../shared/model/level-classifier.ts';
import type { NaiveBayes } from '../../shared/model/naive-bayes.ts';
import type { Label } from '../../shared/model/types.ts';
import type { CrawlStore } from '../store/crawl-store.ts';
import type { FrontierRow, LearnedLink, LinkText } from '../store/records.ts';
import type { CrawlStrategy } from './strategies/crawl-strategy.ts';
import { CountDelta } from './learning-delta.ts';
import type { SharedLearning } from './shared-learning.ts';

/** Pages between two updates. */
export const DEFAULT_ONLINE_EVERY = 50;

/** Queued URLs scored again after an update. */
export const DEFAULT_RESCORE_TOP = 4096;

export interface OnlineLearningOptions {
  /** Pages recorded between two updates (≥ 1). */
  every: number;
  /** Queued URLs, best first, scored again after each update. */
  rescoreTop: number;
  /** The topic written into each learned example. */
  topic: string;
  /** Relevance at or above which a judged page is on topic. */
  relevanceThreshold: number;
  /**
   * With it, an update runs in the background, its re-scoring in slices of `RESCORE_SLICE` rows
   * with a turn awaited between slices (the service's turns, `service/page-turns.ts`), and
   * `pageRecorded` returns at once. Default none: the update is done within `pageRecorded`.
   */
  turn?: () => Promise<void>;
  /**
   * A shared frontier's model (see the file header): updates run in the background (as with
   * `turn`, which is not used then), push their increments there and refresh the models from it.
   */
  shared?: SharedLearning;
}

/** Queued rows re-scored in one turn when updates run in turns (≈ 5–10 ms of scoring). */
export const RESCORE_SLICE = 256;

export interface OnlineModels {
  /** The link classifier, updated in place (the strategy scores with the same object). */
  links: NaiveBayes;
  /** The level classifier, updated in place; absent when the model has none. */
  levels?: LevelClassifier;
  /** The link features both classifiers use. */
  features(context: LinkContext): FeatureVector;
}

export interface UpdateSummary {
  /** Learned examples added (links into newly judged pages). */
  added: number;
  positives: number;
  /** Levels given or lowered. */
  levelled: number;
  /** Queued rows scored again. */
  rescored: number;
}

/** What an update learned, before it is saved. */
interface Learning {
  added: LearnedLink[];
  fresh: Learned[];
  /** A learned link's id → its new level. */
  relevelled: Map<number, number>;
  positives: number;
  /** The last page learned from. */
  seq: number;
}

interface MetaState {
  /** The last page (fetch-order seq) turned into examples. */
  seq: number;
}

/**
 * A learned link in memory: what updating its level needs. Its features are kept only until it
 * is saved; a saved link moved to another level has them computed again from its stored context.
 * Kept for every judged page, they were the service's largest heap item (the soak bench, 20
 * crawls: 343,660 feature strings, ≈ 45 MB of maps), and a link changes level rarely (only on
 * the discovery path of a page judged on topic, at most L − 1 links up).
 */
interface Learned {
  /** Its `learned_links` row id; 0 until saved. */
  id: number;
  /** Its features, until saved. */
  features: FeatureVector | undefined;
  level: number | undefined;
}

export class OnlineLearner {
  #seq: number;
  #pagesSinceUpdate = 0;
  #running: Promise<void> | undefined;
  #failure: unknown;
  /** A page's URL (requested and final) → the URL of the page it was found on. */
  readonly #parentOf = new Map<string, string>();
  /** A page's URL (requested and final) → the learned link into it. */
  readonly #inbound = new Map<string, Learned>();
  /**
   * The strategy hears of every frontier row that changes (`CrawlStore.onFrontierRowChanged`), so
   * a re-scoring reads the texts of only the rows whose features it did not keep (`#rescoredHeads`).
   */
  readonly #toldOfChanges: boolean;

  constructor(
    private readonly store: CrawlStore,
    private readonly strategy: CrawlStrategy,
    private readonly models: OnlineModels,
    private readonly options: OnlineLearningOptions,
    /** How far below its value a host's URLs are queued (the host budget), kept when re-scoring. */
    private readonly hostPenalty: (host: string) => number = () => 0,
  ) {
    if (!Number.isInteger(options.every) || options.every < 1) throw new RangeError(`online learning: every must be a whole number ≥ 1, got ${options.every}`);
    this.#seq = store.getMeta<MetaState>('online')?.seq ?? 0;
    const { forgetKept } = strategy;
    // Not on a shared frontier: other processes change its rows, and its re-scoring reads Redis.
    this.#toldOfChanges = forgetKept !== undefined && strategy.rescoreKept !== undefined && options.shared === undefined;
    if (this.#toldOfChanges) store.onFrontierRowChanged((url) => forgetKept!.call(strategy, url));
    this.#replay();
  }

  /**
   * Shared learning only (a no-op otherwise), before the crawl: learns again, without pushing,
   * the pages whose increments were pushed but not saved here (a kill between the two), then
   * builds the models from the shared counts.
   */
  async start(): Promise<void> {
    const shared = this.options.shared;
    if (shared === undefined) return;
    const pushed = await shared.pushedUpTo();
    if (pushed > this.#seq) this.#save(this.#learn(new CountDelta(), pushed), []);
    await shared.refresh();
  }

  /**
   * Counts a recorded page; every `every` pages, learns (`update`). With `turn`, the update runs
   * in the background and this returns undefined; one update at a time, and pages recorded
   * meanwhile count towards the next.
   */
  pageRecorded(): UpdateSummary | undefined {
    if (++this.#pagesSinceUpdate < this.options.every) return undefined;
    const { turn, shared } = this.options;
    if (turn === undefined && shared === undefined) {
      this.#pagesSinceUpdate = 0;
      return this.update();
    }
    if (this.#running === undefined && this.#failure === undefined) {
      this.#pagesSinceUpdate = 0;
      this.#running = (shared ? this.updateShared() : this.#updateInTurns(turn!))
        .then(() => undefined, (error: unknown) => void (this.#failure = error))
        .finally(() => (this.#running = undefined));
    }
    return undefined;
  }

  /** Resolves when no update is running (never rejects: see `failure`). */
  async idle(): Promise<void> {
    await this.#running;
  }

  /** What a background update threw, if one did: the crawl must stop with it. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Turns the pages recorded since the last update into examples, updates the models, re-scores. */
  update(): UpdateSummary {
    if (this.options.shared) throw new Error('online learning: a shared model is updated by updateShared()');
    const learned = this.#learn();
    // Nothing runs between reading these rows and saving, so a row whose new score equals the one
    // it holds is left as it is: the same store, one UPDATE fewer (in the crawl bench's nb crawl,
    // in most updates about 690 of the ~1,000 rows, sent back with a value below 2⁻⁵³, keep −1 exactly).
    const { scores, scored } = this.#toldOfChanges ? this.#rescoredHeads() : this.#rescored(this.#rescoreRows(), true);
    return { ...this.#save(learned, scores), rescored: scored };
  }

  /**
   * `update` on a shared model (see the file header): the examples' increments pushed, saved
   * here, the models refreshed from the shared counts, the shared queue's head re-scored.
   */
  async updateShared(): Promise<UpdateSummary> {
    const shared = this.options.shared;
    if (shared === undefined) throw new Error('online learning: updateShared() needs a shared model');
    const before = this.#seq;
    const delta = new CountDelta();
    const learned = this.#learn(delta);
    if (learned.seq > before && delta.size > 0) await shared.push(learned.seq, delta);
    const summary = this.#save(learned, []);
    await shared.refresh();
    if (!this.strategy.rescore || this.options.rescoreTop === 0) return summary;
    const { scores } = this.#rescored(await shared.bestQueued(this.options.rescoreTop));
    await shared.setScores(scores);
    return { ...summary, rescored: scores.length };
  }

  /**
   * `update` with its re-scoring in slices, a turn between them. Pages committed meanwhile are
   * scored with the updated models before their examples are saved: a kill in between leaves those
   * few rows scored by models a resume no longer has, as rows past `rescoreTop` always are.
   */
  async #updateInTurns(turn: () => Promise<void>): Promise<UpdateSummary> {
    const learned = this.#learn();
    await turn();
    const rows = this.#rescoreRows();
    const scores: { url: string; score: number }[] = [];
    for (let at = 0; at < rows.length; at += RESCORE_SLICE) {
      await turn();
      scores.push(...this.#rescored(rows.slice(at, at + RESCORE_SLICE)).scores);
    }
    return this.#save(learned, scores);
  }

  /**
   * The examples of the pages recorded since the last update (up to page `upToSeq`), added to the
   * models, or with `delta` (a shared model) counted there and the models left as they are.
   */
  #learn(delta?: CountDelta, upToSeq = Infinity): Learning {
    const { links, levels, features } = this.models;
    const addLink = delta ? (x: FeatureVector, y: Label) => delta.linkAdded(x, y) : (x: FeatureVector, y: Label) => links.add(x, y);
    const moveLevel = (x: FeatureVector, from: number | undefined, to: number) => {
      if (delta) {
        if (from !== undefined) delta.levelChanged(x, from, -1);
        delta.levelChanged(x, to, +1);
        return;
      }
      if (from !== undefined) levels!.remove(x, from);
      levels!.add(x, to);
    };
    const L = levels?.levels ?? 0;
    const added: LearnedLink[] = [];
    const fresh: Learned[] = [];
    const relevelled = new Map<number, number>();
    let positives = 0;
    const pages = this.store.settledPagesSince(this.#seq);
    for (const page of pages) {
      if (page.seq > upToSeq) break;
      this.#seq = page.seq;
      if (page.parent === null) continue;
      this.#parentOf.set(page.url, page.parent);
      this.#parentOf.set(page.finalUrl, page.parent);
      if (page.relevance === null || !page.context) continue;
      const label: Label = page.relevance >= this.options.relevanceThreshold ? 1 : 0;
      const x = features(contextOf(page.url, page.parent, page.context));
      addLink(x, label);
      const learned: Learned = { id: 0, features: x, level: undefined };
      this.#inbound.set(page.url, learned);
      this.#inbound.set(page.finalUrl, learned);
      added.push({ url: page.url, pageUrl: page.parent, ...page.context, label, source: 'crawl', topic: this.options.topic });
      fresh.push(learned);
      if (label === 1) positives++;
      if (label === 1 && levels) {
        // Credit along the discovery tree: the link into this page is level 0, into its parent 1, …
        let url: string | undefined = page.url;
        for (let d = 0; url !== undefined && d < L - 1; d++) {
          const into = this.#inbound.get(url);
          if (into && (into.level === undefined || into.level > d)) {
            const x = into.features ?? this.#storedFeatures(into.id);
            moveLevel(x, into.level, d);
            into.level = d;
            if (into.id !== 0) relevelled.set(into.id, d);
          }
          url = this.#parentOf.get(url);
        }
      }
    }
    added.forEach((link, i) => (link.level = fresh[i]!.level));
    return { added, fresh, relevelled, positives, seq: this.#seq };
  }

  /**
   * One transaction for the examples, the levels and the new scores: a crawl killed in between
   * would otherwise resume with models that no longer match its frontier.
   */
  #save({ added, fresh, relevelled, positives, seq }: Learning, scores: { url: string; score: number }[]): UpdateSummary {
    this.store.saveLearning(added, [...relevelled].map(([id, level]) => ({ id, level })), { seq } satisfies MetaState, scores);
    added.forEach((link, i) => {
      fresh[i]!.id = link.id!;
      fresh[i]!.features = undefined;
    });
    return { added: added.length, positives, levelled: relevelled.size + fresh.filter((l) => l.level !== undefined).length, rescored: scores.length };
  }

  /** A saved learned link's features, from its stored context. */
  #storedFeatures(id: number): FeatureVector {
    const link = this.store.learnedLinkContext(id);
    if (!link) throw new Error(`online learning: learned link ${id} is missing from the crawl store`);
    return this.models.features(contextOf(link.url, link.pageUrl, link));
  }

  /** The queued rows to score again: the best `rescoreTop`. */
  #rescoreRows(): FrontierRow[] {
    if (!this.strategy.rescore || this.options.rescoreTop === 0) return [];
    return this.store.bestQueued(this.options.rescoreTop);
  }

  /**
   * The rows' scores under the updated models (the host budget's step kept); with `changedOnly`,
   * only those that differ from the score the row was read with. `scored`: rows scored.
   */
  #rescored(rows: readonly FrontierRow[], changedOnly = false): { scores: { url: string; host: string; score: number }[]; scored: number } {
    const rescore = this.strategy.rescore;
    const scores: { url: string; host: string; score: number }[] = [];
    let scored = 0;
    if (!rescore) return { scores, scored };
    for (const row of rows) {
      if (!row.context) continue;
      const score = rescore({ ...row, context: row.context }) - this.hostPenalty(row.host);
      scored++;
      if (!changedOnly || score !== row.score) scores.push({ url: row.url, host: row.host, score });
    }
    return { scores, scored };
  }

  /**
   * `#rescored(#rescoreRows(), true)`, the same scores, reading the texts of only the rows whose
   * features the strategy did not keep: it heard of every row changed since it kept them, so a
   * kept row's text is the one it was kept with (`CrawlStrategy.rescoreKept`). Reading every
   * row's three texts was two thirds of reading the head (issue 14).
   */
  #rescoredHeads(): { scores: { url: string; host: string; score: number }[]; scored: number } {
    const { rescore, rescoreKept } = this.strategy;
    const scores: { url: string; host: string; score: number }[] = [];
    if (!rescore || !rescoreKept || this.options.rescoreTop === 0) return { scores, scored: 0 };
    const heads = this.store.queuedHeads(this.options.rescoreTop).filter((head) => head.hasText);
    const values = heads.map((head) => rescoreKept.call(this.strategy, head));
    const texts = this.store.queuedTexts(heads.filter((_, i) => values[i] === undefined).map((head) => head.url));
    heads.forEach((head, i) => {
      const value = values[i] ?? rescore.call(this.strategy, { ...head, context: texts.get(head.url)! });
      const score = value - this.hostPenalty(head.host);
      if (score !== head.score) scores.push({ url: head.url, host: head.host, score });
    });
    return { scores, scored: heads.length };
  }

  /** Resume: the stored examples back into the models, and the discovery tree rebuilt. */
  #replay(): void {
    const finalOf = new Map<string, string>();
    for (const page of this.store.settledPagesSince(0)) {
      if (page.seq > this.#seq) break;
      finalOf.set(page.url, page.finalUrl);
      if (page.parent === null) continue;
      this.#parentOf.set(page.url, page.parent);
      this.#parentOf.set(page.finalUrl, page.parent);
    }
    const inbound = (link: LearnedLink) => {
      const learned: Learned = { id: link.id!, features: undefined, level: link.level };
      this.#inbound.set(link.url, learned);
      const finalUrl = finalOf.get(link.url);
      if (finalUrl !== undefined) this.#inbound.set(finalUrl, learned);
    };
    // A shared model is rebuilt from the shared counts (`start`), which hold these links already.
    if (this.options.shared) this.store.learnedLinks().forEach(inbound);
    else replayLearnedLinks(this.store, this.models, inbound);
  }
}

/**
 * The links a crawl learned, added back into its models (`add` is exact and order-free): the
 * models as the crawl last had them. `each` sees every link with its features.
 */
export function replayLearnedLinks(store: CrawlStore, models: OnlineModels, each?: (link: LearnedLink, features: FeatureVector) => void): void {
  const { links, levels, features } = models;
  for (const link of store.learnedLinks()) {
    const x = features(contextOf(link.url, link.pageUrl, link));
    links.add(x, link.label);
    if (link.level !== undefined && levels) levels.add(x, link.level);
    each?.(link, x);
  }
}

function contextOf(url: string, pageUrl: string, text: LinkText): LinkContext {
  return { url, pageUrl, anchor: text.anchor, before: text.before, after: text.after };
}
