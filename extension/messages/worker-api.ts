/**
 * What the scoring Web Worker exposes through comlink (STYLE.md 4: one interface for the worker).
 *
 * The background is the only caller. Every call carries the topic it is about, so the worker
 * holds no copy of the user's settings: it keeps only what is expensive to rebuild (jieba, the
 * warm model per topic) and rebuilds it from IndexedDB when it was lost.
 *
 * Transport: the background creates a MessageChannel per connection and hands one port to the
 * worker with a `WorkerConnect` message (through the offscreen document in Chromium, directly in
 * Firefox); the worker `Comlink.expose`s this API on that port.
 */
import type { Label, LabeledLink, LabelSource, ThresholdMode, Topic } from '../../shared/model/types.ts';
import type { PackedVerdicts } from './packed-verdicts.ts';
import type { LinkVerdict, PageLink } from './page-links.ts';
import type { Counts } from './views.ts';

/** The message that hands the worker a fresh comlink port (`event.ports[0]`). */
export interface WorkerConnect {
  type: 'linkscent/connect';
}

export const WORKER_CONNECT: WorkerConnect['type'] = 'linkscent/connect';

export function isWorkerConnect(data: unknown): data is WorkerConnect {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === WORKER_CONNECT;
}

/**
 * The threshold a topic's links are judged at and how good it is on held-out examples: never
 * plain accuracy, which on imbalanced classes says little (issue 12).
 */
export interface HeldOut {
  mode: ThresholdMode;
  /** P(+) at or above which a link is on topic: calibrated, or the topic's own when fixed. */
  threshold: number;
  /** Figures at `threshold` for a model trained on the other examples; null when too few to say. */
  figures: { precision: number; recall: number; f1: number; balancedAccuracy: number } | null;
  /** Held-out examples they were measured on, and how many of them are on topic. */
  n: number;
  positives: number;
  /** False when the topic's target precision was not reached (the most precise cut is used). */
  reached: boolean;
}

export interface ObserveResult {
  /** Labeled examples stored or relabeled (duplicates are not counted). */
  added: number;
}

/** A page whose links were seen (recorded in the `pages` table). */
export interface SeenPage {
  url: string;
  title: string;
}

/** What merging a model file's labels did. */
export interface MergeResult {
  /** Examples of the merged topic in the file. */
  offered: number;
  /** Stored and learned (new link contexts). */
  added: number;
  /** Already stored here: left as they were, not counted twice. */
  duplicates: number;
}

/** What an import did. */
export interface ImportResult {
  /** Topics in the file (added, or replacing the topic with the same id). */
  topics: number;
  /** Examples written; `duplicates`: the file's examples already stored, left as they were. */
  examples: number;
  duplicates: number;
  /** Examples stored now, every topic. */
  total: number;
}

export interface WorkerApi {
  /** Answers once jieba and the database are ready; the host's liveness probe. */
  ping(): Promise<'pong'>;
  /** P(+ | link) and the highlight level of each link, for the topic's current model. */
  scoreLinks(topic: Topic, links: PageLink[]): Promise<LinkVerdict[]>;
  /**
   * Stores labeled examples, skipping duplicates (one per link context), and applies them to the
   * topic's model at once (incremental, no retrain). `page`, when given, is recorded as seen.
   */
  observe(topic: Topic, examples: LabeledLink[], page?: SeenPage): Promise<ObserveResult>;
  /**
   * Relabels every stored link context of the topic that points to `url` (found on `pageUrl`
   * only, when given) with `label` from `source`, updating the model; a 'page' mark also records
   * the page's label. Returns how many contexts were labeled.
   */
  labelTarget(topic: Topic, url: string, label: Label, source: LabelSource, pageUrl?: string): Promise<{ labeled: number }>;
  /** Forgets a topic's examples and model. */
  dropTopic(topicId: string): Promise<void>;
  /** Rebuilds the topic's model from its stored examples (after a lexicon or feature change). */
  retrain(topic: Topic): Promise<{ examples: number }>;
  /** Example counts for the popup. */
  counts(topic: Topic | null): Promise<Counts>;
  /** The threshold in use and its precision and recall on a fixed held-out share of the examples. */
  evaluateHeldOut(topic: Topic): Promise<HeldOut>;
  /** The whole database as a Dexie export file's text (without the companion pairing). */
  exportDatabase(): Promise<string>;
  /** One topic (its topic row, examples and model, saved first) as a model file, for the companion. */
  exportTopic(topic: Topic): Promise<string>;
  /**
   * Merges the examples of topic `fromTopicId` (default `topic.id`, or the file's only topic) of a
   * model file into `topic`: new link contexts are stored and learned at once (incremental), the
   * ones stored already are left as they are. Throws an Error with a one-line message, and
   * changes nothing, when the file is not a model file.
   */
  mergeLabels(topic: Topic, fileText: string, fromTopicId?: string): Promise<MergeResult>;
  /**
   * Imports a model file: merged by default (topics by id, examples by link context; the merged
   * topics' models rebuilt over all their examples), or, with `replace`, the database becomes
   * the file. Says what it added. Throws an Error with a one-line message, and changes nothing,
   * when the file is wrong.
   */
  importDatabase(fileText: string, replace?: boolean): Promise<ImportResult>;
}

/**
 * `WorkerApi` as the Worker exposes it on its port: `scoreLinks` answers with the verdicts packed
 * (`packed-verdicts.ts`), which the background's `WorkerHost` unpacks, so its callers see `WorkerApi`.
 */
export type WorkerWireApi = Omit<WorkerApi, 'scoreLinks'> & {
  scoreLinks(topic: Topic, links: PageLink[]): Promise<PackedVerdicts>;
};
