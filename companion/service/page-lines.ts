/**
 * `GET /api/crawls/:id/pages`: a window of a crawl's `pages.jsonl`. The file is the crawl's public
 * record (SQLite's projection, rebuilt on resume), read whole: simple, and cheap enough (a
 * 100 000-page file is about 32 MB, read and split in about 0.1 s here); the dashboard asks only
 * for pages it has not seen. An index of line offsets would be the next step if that grows.
 */
import { existsSync, readFileSync } from 'node:fs';

/** Reads a crawl's pages.jsonl lines [offset, offset + limit) and the total. */
export function readPageLines(path: string, offset: number, limit: number): { total: number; pages: unknown[] } {
  if (!existsSync(path)) return { total: 0, pages: [] };
  const lines = readFileSync(path, 'utf8').split('\n');
  // Only whole lines: the last element is '' after a final newline, or a line being written.
  lines.pop();
  const pages = lines.slice(offset, offset + limit).map((line) => JSON.parse(line) as unknown);
  return { total: lines.length, pages };
}
