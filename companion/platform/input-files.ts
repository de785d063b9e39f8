/**
 * Reading the companion's input files (labeled links, labeled pages, a lexicon, a page model):
 * one wording for a file that cannot be read, and one forgiving JSON-lines reader, so every
 * command reports a bad file and a bad line the same way.
 */
import { readFileSync } from 'node:fs';

/** An input file that cannot be read; the message is one line naming it. */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
}

/**
 * The file's text (UTF-8). Throws `InputFileError`: `cannot read <what>: no such file` (or `is a
 * directory`, or the system's message); `what` defaults to the path (`--lexicon words.txt`).
 */
export function readTextFile(path: string, what: string = path): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message.split('\n')[0];
    throw new InputFileError(`cannot read ${what}: ${why}`, { cause: error });
  }
}

/** How many bad lines are reported one by one before the rest are only counted. */
export const PROBLEMS_SHOWN = 5;

/** Warns about skipped bad lines: the first `PROBLEMS_SHOWN` each in its own line, then a count. */
export function warnSkippedLines(problems: readonly string[], warn: (line: string) => void): void {
  for (const problem of problems.slice(0, PROBLEMS_SHOWN)) warn(`warning: ${problem} (line skipped)`);
  if (problems.length > PROBLEMS_SHOWN) warn(`warning: ${problems.length - PROBLEMS_SHOWN} more bad lines skipped`);
}

/**
 * Why nothing usable was read, for a one-line failure: the first bad line and the count (` (3
 * bad lines; first f.jsonl:2: not JSON)`), or `empty` (` (the file is empty)`) when none was bad.
 */
export function nothingUsableNote(problems: readonly string[], empty: string): string {
  return problems[0] ? ` (${problems.length} bad lines; first ${problems[0]})` : ` (${empty})`;
}

export interface JsonLines<T> {
  items: T[];
  /** One per bad line: `name:line: problem`. */
  problems: string[];
}

/**
 * The longest JSON line read. A labeled link is a URL, an anchor and two contexts of W (≤ 1,000)
 * characters: a few KiB. A 50 MB line once went whole into a model's vocabulary.
 */
export const MAX_JSON_LINE_CHARS = 1 << 20;

/**
 * JSON lines read forgivingly: blank lines are ignored; a line that is not JSON, longer than
 * MAX_JSON_LINE_CHARS, or that `problemOf` rejects, becomes one `name:line: problem` entry and is
 * skipped; every other line is `convert`ed. A last line cut short by a kill mid-write reads as
 * "not JSON", which it is. A byte-order mark (editors on Windows write one) is not part of line 1.
 */
export function parseJsonLines<T>(
  text: string,
  name: string,
  problemOf: (value: unknown) => string | null,
  convert: (record: Record<string, unknown>) => T,
): JsonLines<T> {
  const items: T[] = [];
  const problems: string[] = [];
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  body.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    if (line.length > MAX_JSON_LINE_CHARS) {
      problems.push(`${name}:${index + 1}: a line of ${line.length} characters, at most ${MAX_JSON_LINE_CHARS}`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${name}:${index + 1}: not JSON`);
      return;
    }
    const problem = problemOf(value);
    if (problem) problems.push(`${name}:${index + 1}: ${problem}`);
    else items.push(convert(value as Record<string, unknown>));
  });
  return { items, problems };
}
