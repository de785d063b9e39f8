/** Helpers shared by the crawl tests: temp directories and pages.jsonl reading. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageRecord } from '../../../companion/store/records.ts';

export function tempDir(prefix = 'linkscent-crawl-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function readPages(dir: string): PageRecord[] {
  const text = readFileSync(join(dir, 'pages.jsonl'), 'utf8');
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as PageRecord);
}

/** Path of an absolute URL. */
export const pathOf = (url: string) => new URL(url).pathname;
