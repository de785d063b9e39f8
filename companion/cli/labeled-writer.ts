/**
 * Appends labeled links to a JSON-lines file as a crawl goes, one write per page, so that a
 * `collect` killed at any moment keeps every page it had finished.
 *
 * A link context (seed 000's unit: URL, page, anchor, context; `exampleKey`) is written once.
 * The keys already in the file are read first, so a second run into the same file adds only
 * what is new instead of duplicating what is there.
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { exampleKey } from '../../shared/model/example-key.ts';
import type { LabeledLink } from '../../shared/model/types.ts';
import { readTextFile } from '../platform/input-files.ts';
import { cannotWrite } from '../platform/output-paths.ts';
import { parseLabeledJsonl } from './labeled-jsonl.ts';

export interface WriteCounts {
  positives: number;
  negatives: number;
  /** Contexts met again (in this run or already in the file) and not written. */
  repeats: number;
}

export class LabeledWriter implements WriteCounts {
  positives = 0;
  negatives = 0;
  repeats = 0;
  /** Examples that were already in the file when it was opened. */
  readonly existing: number;
  readonly #keys: Set<string>;
  #fd: number;

  constructor(readonly path: string) {
    this.#keys = new Set();
    let prefix = '';
    if (existsSync(path)) {
      const text = readTextFile(path);
      for (const example of parseLabeledJsonl(text, path).examples) this.#keys.add(exampleKey(example));
      // A run killed mid-line leaves a partial last line; start ours on a line of its own.
      if (text.length > 0 && !text.endsWith('\n')) prefix = '\n';
    }
    this.existing = this.#keys.size;
    try {
      this.#fd = openSync(path, 'a');
    } catch (error) {
      throw cannotWrite(path, error);
    }
    if (prefix) writeSync(this.#fd, prefix);
  }

  /** Writes one page's new examples in a single append. */
  writePage(examples: readonly LabeledLink[]): void {
    let chunk = '';
    for (const example of examples) {
      const key = exampleKey(example);
      if (this.#keys.has(key)) {
        this.repeats++;
        continue;
      }
      this.#keys.add(key);
      if (example.label === 1) this.positives++;
      else this.negatives++;
      chunk += `${JSON.stringify(example)}\n`;
    }
    if (chunk) writeSync(this.#fd, chunk);
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }
}
