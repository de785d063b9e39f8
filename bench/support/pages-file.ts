/**
 * A crawl's pages.jsonl as the benches read it: the lines in the order the crawl recorded them,
 * with the fields the benches count by.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PageLine {
  url: string;
  finalUrl: string;
  outcome: string;
}

/** Every line of `dir/pages.jsonl`, in order. */
export function readPages(dir: string): PageLine[] {
  return readFileSync(join(dir, 'pages.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PageLine);
}
