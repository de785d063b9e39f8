/**
 * Shape checks of the service's answers (`shared/service-api/types.ts`). Only what the extension reads is
 * checked, so the service may add fields without breaking an installed extension; a value that
 * fails is reported by the client as "not the companion's answer", never half-used.
 */
import type { CrawlInfo, CrawlState, ModelUpload, PagesReply, ServiceStatus } from '../../shared/service-api/types.ts';

const STATES: readonly CrawlState[] = ['running', 'paused', 'done', 'stopped', 'failed'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

export function isCrawlInfo(value: unknown): value is CrawlInfo {
  if (!isObject(value)) return false;
  const { id, state, seeds, progress, dashboardPath, topic } = value;
  if (typeof id !== 'string' || id === '' || !STATES.includes(state as CrawlState)) return false;
  if (!Array.isArray(seeds) || !seeds.every((seed) => typeof seed === 'string')) return false;
  // A path on the service itself: '//host/…' would be another origin.
  if (typeof dashboardPath !== 'string' || !/^\/(?![/\\])/.test(dashboardPath)) return false;
  if (topic !== null && topic !== undefined && !(isObject(topic) && typeof topic.id === 'string' && typeof topic.name === 'string')) return false;
  if (!isObject(progress)) return false;
  const { fetched, maxPages, queued, errors, pagesPerSecond, harvest } = progress;
  return (
    [fetched, maxPages, queued, errors, pagesPerSecond].every(isCount) &&
    (harvest === null || (typeof harvest === 'number' && harvest >= 0 && harvest <= 1))
  );
}

export function isServiceStatus(value: unknown): value is ServiceStatus {
  return isObject(value) && typeof value.version === 'string' && Array.isArray(value.crawls);
}

export function isModelUpload(value: unknown): value is ModelUpload {
  return isObject(value) && typeof value.modelId === 'string' && value.modelId !== '' && Array.isArray(value.topics);
}

export function isPagesReply(value: unknown): value is PagesReply {
  return isObject(value) && isCount(value.total) && Array.isArray(value.pages) && value.pages.every(isObject);
}
