/**
 * `CrawlRequest` (docs/service-api.md), checked at the edge: every field's type and range, unknown
 * fields refused by name, defaults filled in. A bad request is one HttpError 400 naming the field.
 */
import { CRAWL_LIMITS } from '../crawl/crawl-limits.ts';
import { SCOPES, type Scope } from '../crawl/url-scope.ts';
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import { requestScope, type CrawlRequest } from '../../shared/service-api/types.ts';
import { HttpError } from './http-io.ts';

/** A checked request with every default filled in: what `crawl.json` keeps. */
export interface CrawlPlan {
  /** Normalised, deduplicated. */
  seeds: string[];
  modelId: string | null;
  topicId: string | null;
  strategy: 'nb' | 'bfs';
  maxPages: number;
  maxDepth: number;
  concurrency: number;
  delayMs: number;
  /** The older wire field: true when `scope` is seed-hosts. Kept in records for earlier builds. */
  sameSite: boolean;
  /** Which links the crawl may queue (`crawl/url-scope.ts`); absent in records made before it. */
  scope?: Scope;
  /** Write WARC files into the crawl's directory; absent (false) in records made before it. */
  warc?: boolean;
  /** Keep each page's text; absent (false) in records made before it. */
  storeText?: boolean;
}

export const REQUEST_DEFAULTS = { maxPages: 200, maxDepth: 5, concurrency: 4, delayMs: 500, sameSite: false } as const;

/** Upper bounds, the command line's own (`crawl-limits.ts`); a served crawl also stops at 100,000 pages. */
const LIMITS = { ...CRAWL_LIMITS, maxPages: 100_000 } as const;

/** Every field of the contract's request, once: the record makes the compiler check the list. */
const FIELD_SET: Record<keyof CrawlRequest, true> = {
  seeds: true, modelId: true, topicId: true, strategy: true, maxPages: true, maxDepth: true, concurrency: true, delayMs: true, sameSite: true, scope: true,
  warc: true, storeText: true,
};
const FIELDS: string[] = Object.keys(FIELD_SET);

export function checkCrawlRequest(body: unknown): CrawlPlan {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the body must be a JSON object (a CrawlRequest)');
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!FIELDS.includes(key)) throw bad(`unknown field "${key}" (known: ${FIELDS.join(', ')})`);
  }
  if (!Array.isArray(input.seeds) || input.seeds.length === 0) throw bad('seeds must be a list of at least one absolute http(s) URL');
  if (input.seeds.length > LIMITS.seeds) throw bad(`seeds: ${input.seeds.length} given, at most ${LIMITS.seeds}`);
  const seeds: string[] = [];
  for (const seed of input.seeds) {
    if (typeof seed === 'string' && seed.length > LIMITS.seedLength) throw bad(`seed "${seed.slice(0, 60)}…" is ${seed.length} characters long, at most ${LIMITS.seedLength}`);
    const url = typeof seed === 'string' ? normalizeUrl(seed.trim(), seed.trim()) : undefined;
    if (url === undefined) throw bad(`seed ${JSON.stringify(seed)} is not an absolute http(s) URL`);
    if (!seeds.includes(url)) seeds.push(url);
  }
  const modelId = optionalString(input, 'modelId');
  const topicId = optionalString(input, 'topicId');
  if (topicId !== undefined && modelId === undefined) throw bad('topicId needs a modelId');
  let strategy: 'nb' | 'bfs' = modelId !== undefined ? 'nb' : 'bfs';
  if (input.strategy !== undefined) {
    if (input.strategy !== 'nb' && input.strategy !== 'bfs') throw bad(`strategy must be "nb" or "bfs", got ${JSON.stringify(input.strategy)}`);
    strategy = input.strategy;
  }
  if (strategy === 'nb' && modelId === undefined) throw bad('strategy nb needs a modelId (upload a model with POST /api/models)');
  if (input.sameSite !== undefined && typeof input.sameSite !== 'boolean') throw bad(`sameSite must be true or false, got ${JSON.stringify(input.sameSite)}`);
  if (input.scope !== undefined && !(SCOPES as readonly unknown[]).includes(input.scope)) throw bad(`scope must be one of ${SCOPES.join(', ')}, got ${JSON.stringify(input.scope)}`);
  if (input.scope !== undefined && input.sameSite !== undefined && requestScope(input as Pick<CrawlRequest, 'scope'>) !== (input.sameSite ? 'seed-hosts' : 'any')) throw bad('scope and sameSite disagree: give scope only');
  const scope: Scope = input.scope !== undefined ? (input.scope as Scope) : ((input.sameSite as boolean | undefined) ?? REQUEST_DEFAULTS.sameSite) ? 'seed-hosts' : 'any';
  return {
    seeds,
    modelId: modelId ?? null,
    topicId: topicId ?? null,
    strategy,
    maxPages: wholeNumber(input, 'maxPages', 1, LIMITS.maxPages),
    maxDepth: wholeNumber(input, 'maxDepth', 0, LIMITS.maxDepth),
    concurrency: wholeNumber(input, 'concurrency', 1, LIMITS.concurrency),
    delayMs: wholeNumber(input, 'delayMs', 0, LIMITS.delayMs),
    sameSite: scope === 'seed-hosts',
    scope,
    warc: optionalBoolean(input, 'warc'),
    storeText: optionalBoolean(input, 'storeText'),
  };
}

function optionalBoolean(input: Record<string, unknown>, key: 'warc' | 'storeText'): boolean {
  const value = input[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw bad(`${key} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function optionalString(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw bad(`${key} must be a non-empty string`);
  return value;
}

function wholeNumber(input: Record<string, unknown>, key: 'maxPages' | 'maxDepth' | 'concurrency' | 'delayMs', min: number, max: number): number {
  const value = input[key];
  if (value === undefined) return REQUEST_DEFAULTS[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw bad(`${key} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function bad(message: string): HttpError {
  return new HttpError(400, message);
}
