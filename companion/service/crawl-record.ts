/**
 * A crawl as the service keeps it: `crawls/<id>/crawl.json` (the checked request, the state, the
 * last progress) and the `CrawlInfo` the API answers with (docs/service-api.md).
 */
import { readFileSync } from 'node:fs';
import type { CrawlInfo, CrawlProgressInfo, CrawlState } from '../../shared/service-api/types.ts';
import type { CrawlProgress } from '../crawl/progress.ts';
import { writeJsonAtomic } from '../platform/atomic-file.ts';
import type { CrawlPlan } from './crawl-request.ts';

export const CRAWL_FILE = 'crawl.json';
export const MODEL_FILE = 'model.json';

/** The contents of `crawl.json`. */
export interface CrawlRecord {
  version: 1;
  id: string;
  createdAt: number;
  plan: CrawlPlan;
  topic: { id: string; name: string } | null;
  state: CrawlState;
  error?: string;
  progress: CrawlProgressInfo;
  /** Elapsed time of the runs that have ended, so elapsedMs adds up across pauses and restarts. */
  elapsedBeforeMs: number;
  updatedAt: number;
}

export function initialProgress(plan: CrawlPlan): CrawlProgressInfo {
  return { fetched: 0, maxPages: plan.maxPages, queued: plan.seeds.length, errors: 0, judged: 0, relevant: 0, harvest: null, pagesPerSecond: 0, elapsedMs: 0 };
}

/** A run's progress report as the API's, its elapsed time added to the earlier runs'. */
export function infoProgress(progress: CrawlProgress, elapsedBeforeMs: number): CrawlProgressInfo {
  const { fetched, maxPages, queued, errors, judged, relevant, harvest, pagesPerSecond, elapsedMs } = progress;
  return { fetched, maxPages, queued, errors, judged, relevant, harvest, pagesPerSecond, elapsedMs: elapsedBeforeMs + elapsedMs };
}

export function toInfo(record: CrawlRecord): CrawlInfo {
  const info: CrawlInfo = {
    id: record.id,
    state: record.state,
    createdAt: record.createdAt,
    seeds: record.plan.seeds,
    strategy: record.plan.strategy,
    topic: record.topic,
    maxPages: record.plan.maxPages,
    progress: record.progress,
    dashboardPath: `/dashboard#crawl=${record.id}`,
  };
  if (record.error !== undefined) info.error = record.error;
  return info;
}

export function writeCrawlRecord(path: string, record: CrawlRecord): void {
  writeJsonAtomic(path, { ...record, updatedAt: Date.now() });
}

/** Reads a `crawl.json`; throws a one-line Error for a file that is not one. */
export function readCrawlRecord(path: string): CrawlRecord {
  const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<CrawlRecord>;
  const states: CrawlState[] = ['running', 'paused', 'done', 'stopped', 'failed'];
  if (value.version !== 1 || typeof value.id !== 'string' || !value.plan || !Array.isArray(value.plan.seeds) || !states.includes(value.state as CrawlState)) {
    throw new Error('not a crawl.json of this version');
  }
  return {
    elapsedBeforeMs: 0,
    topic: null,
    ...value,
    progress: value.progress ?? initialProgress(value.plan),
  } as CrawlRecord;
}
