/**
 * Online learning shared by the crawl processes of one shared frontier (issue 15): one model
 * version, held as counts where every process adds its examples' increments and reads the sum
 * back. What `OnlineLearner` (`online-learning.ts`) needs of it; the Redis implementation is
 * `frontier/redis/shared-learning.ts`.
 *
 * With it, a learner does not `add` its examples to its own models: it pushes their increments
 * (`learning-delta.ts`), then refreshes, and its models become the taught model plus every
 * process's increments. So every process scores with one model (up to the pushes it has not read
 * yet), and a process that restarts rebuilds that model from the shared counts, not from its own
 * examples alone.
 */
import type { FrontierRow } from '../store/records.ts';
import type { CountDelta } from './learning-delta.ts';

export interface SharedLearning {
  /**
   * Adds one update's increments to the shared counts and moves the model version, at most once
   * per (this worker's store, `upToSeq`): a retry, or a restarted worker learning the same pages
   * again, changes nothing. `upToSeq` is the last page (this store's fetch order) the update
   * learned from, and must grow from one push to the next.
   */
  push(upToSeq: number, delta: CountDelta): Promise<void>;
  /** The last `upToSeq` this worker's store pushed (0: none): a restart catches up to it without pushing. */
  pushedUpTo(): Promise<number>;
  /** When the shared version moved since the last refresh, the models rebuilt in place as taught model + shared counts; true then. */
  refresh(): Promise<boolean>;
  /** The shared queue's best `limit` rows, with the link contexts they were scored from. */
  bestQueued(limit: number): Promise<FrontierRow[]>;
  /** New scores for queued rows, higher or lower; rows claimed or settled meanwhile are left alone. */
  setScores(scores: readonly { url: string; host: string; score: number }[]): Promise<void>;
  /** The shared model's version (increments pushed so far, by every worker), as last read. */
  readonly version: number;
}
