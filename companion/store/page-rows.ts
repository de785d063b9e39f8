/**
 * A `pages` row as SQLite gives it, and the `PageRecord` it is (one line of pages.jsonl): shared
 * by the store's queries (`crawl-store.ts`, `page-extras-queries.ts`).
 */
import type { PageRecord } from './records.ts';

export interface RawPageRow {
  seq: number;
  url: string;
  final_url: string;
  status: number;
  depth: number;
  parent: string | null;
  score: number;
  fetched_at: string;
  bytes: number;
  content_type: string;
  outcome: string;
  error: string | null;
  relevance: number | null;
  noindex: number;
  attempts: number;
  claim_rank: number | null;
  log_odds: number | null;
}

/** A page row as the JSON line of pages.jsonl: optional fields only when they say something. */
export function toPageRecord(raw: RawPageRow): PageRecord {
  const record: PageRecord = {
    seq: raw.seq,
    url: raw.url,
    finalUrl: raw.final_url,
    status: raw.status,
    depth: raw.depth,
    parent: raw.parent,
    score: raw.score,
    fetchedAt: raw.fetched_at,
    bytes: raw.bytes,
    contentType: raw.content_type,
    outcome: raw.outcome,
  };
  if (raw.error !== null) record.error = raw.error;
  if (raw.attempts > 1) record.attempts = raw.attempts;
  if (raw.relevance !== null) record.relevance = raw.relevance;
  if (raw.noindex) record.noindex = true;
  if (raw.claim_rank !== null) record.rank = raw.claim_rank;
  if (raw.log_odds !== null && raw.log_odds !== undefined) record.logOdds = raw.log_odds;
  return record;
}
