/**
 * What the popup and options page are shown: example counts, crawls, the companion's status,
 * and failures (one sentence, or a problem the UI translates).
 */
import type { CrawlInfo } from '../../shared/service-api/types.ts';
import type { LabelSource } from '../../shared/model/types.ts';
import type { CompanionProblem } from '../companion-client/client.ts';
import type { CrawlChoice } from './settings.ts';

export interface Counts {
  /** Labeled examples of the active topic. */
  byLabel: Record<'on' | 'off', number>;
  bySource: Partial<Record<LabelSource, number>>;
  /** Distinct pages whose links were seen (any topic). */
  pagesSeen: number;
}

/** A crawl as the popup shows it. */
export interface CrawlView {
  info: CrawlInfo;
  /** The dashboard page of this crawl, token included (opened in a new tab). */
  dashboardUrl: string;
  /** The limits and scope it was started with, when this browser started it (says why it ended). */
  choice?: CrawlChoice;
}

/** What `GET /api/status` says, reduced to what the options page shows. */
export interface CompanionStatusView {
  version: string;
  port: number;
  /** Crawls the companion knows (any state). */
  crawls: number;
}

/** A failure the UI shows as is (already a sentence). */
export interface Failure {
  ok: false;
  error: string;
}

/**
 * Why a companion request failed: the client's problems (the service's side), and the
 * extension's own reasons a crawl cannot start or its labels cannot be pulled.
 */
export type CrawlProblem =
  | CompanionProblem
  /** No active topic. */
  | 'no-topic'
  /** The active topic has no labeled example: the companion would get an untrained model. */
  | 'no-examples'
  /** The tab shows no http(s) page. */
  | 'not-web-page'
  /** No crawl was started from this browser. */
  | 'no-crawl'
  /** The crawl's topic was deleted here since. */
  | 'topic-gone'
  /** The companion's labels file is not a model file (`detail` says why). */
  | 'bad-labels'
  /** Something unexpected here (the worker, storage): `error` says what, untranslated. */
  | 'internal';

/** A failure of a companion request: the UI translates `problem`, else shows `error`. */
export interface CompanionFailure extends Failure {
  problem: CrawlProblem;
  /** The companion's own sentence, when it gave one. */
  detail?: string;
  /** The port that was called (for "not running on port P"). */
  port: number;
}
