/**
 * Labeled link files: JSON lines of `LabeledLink` (DESIGN.md: `{url, pageUrl, anchor, before,
 * after, label, source, topic}`), as `collect` writes them and the extension exports them.
 *
 * Reading is forgiving line by line and strict about the file: a bad line is reported in one
 * line (`labeled.jsonl:17: missing field "anchor"`) and skipped, so one damaged line does not
 * cost a whole collection; a file that cannot be read, or that holds no valid line, fails.
 * Only `url`, `anchor` and `label` are required; `pageUrl`, `before`, `after` default to "" (a
 * hand-written file of anchors is a fair group-1 training set), `source` to "pattern" and
 * `topic` to "" (the command decides).
 */
import type { LabeledLink, LabelSource } from '../../shared/model/types.ts';
import { nothingUsableNote, parseJsonLines, readTextFile, warnSkippedLines } from '../platform/input-files.ts';
import { CliFailure } from './errors.ts';

const SOURCES: readonly LabelSource[] = ['pattern', 'user', 'page', 'crawl'];

/** Why a parsed line is not a labeled link, or null when it is one. */
export function labeledLinkProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  for (const field of ['url', 'anchor'] as const) {
    if (!(field in record)) return `missing field "${field}"`;
    if (typeof record[field] !== 'string') return `field "${field}" must be a string`;
  }
  if (!('label' in record)) return 'missing field "label"';
  if (record.label !== 0 && record.label !== 1) return `field "label" must be 0 or 1, got ${JSON.stringify(record.label)}`;
  for (const field of ['pageUrl', 'before', 'after', 'topic'] as const) {
    if (field in record && typeof record[field] !== 'string') return `field "${field}" must be a string`;
  }
  if ('source' in record && !SOURCES.includes(record.source as LabelSource)) {
    return `field "source" must be one of ${SOURCES.join(', ')}, got ${JSON.stringify(record.source)}`;
  }
  return null;
}

function toLabeledLink(record: Record<string, unknown>): LabeledLink {
  return {
    url: record.url as string,
    pageUrl: (record.pageUrl as string | undefined) ?? '',
    anchor: record.anchor as string,
    before: (record.before as string | undefined) ?? '',
    after: (record.after as string | undefined) ?? '',
    label: record.label as 0 | 1,
    source: (record.source as LabelSource | undefined) ?? 'pattern',
    topic: (record.topic as string | undefined) ?? '',
  };
}

export interface LabeledFile {
  examples: LabeledLink[];
  /** One line per bad input line: `file:line: problem`. */
  problems: string[];
}

/** Parses JSON-lines text; `name` labels the problem lines. Blank lines are ignored. */
export function parseLabeledJsonl(text: string, name: string): LabeledFile {
  const { items: examples, problems } = parseJsonLines(text, name, labeledLinkProblem, toLabeledLink);
  return { examples, problems };
}

/** Reads one labeled file; a missing or unreadable file is an `InputFileError` naming it. */
export function readLabeledFile(path: string): LabeledFile {
  return parseLabeledJsonl(readTextFile(path), path);
}

/**
 * Reads several labeled files, warning about bad lines (the first few each in its line, then a
 * count), and fails when no valid example is left.
 */
export function readLabeledFiles(paths: string[], warn: (line: string) => void): LabeledLink[] {
  const examples: LabeledLink[] = [];
  const problems: string[] = [];
  for (const path of paths) {
    const file = readLabeledFile(path);
    examples.push(...file.examples);
    problems.push(...file.problems);
  }
  if (examples.length === 0) {
    // Failing: one line only, which carries the first problem instead of a list of warnings.
    throw new CliFailure(`no valid labeled links in ${paths.join(', ')}${nothingUsableNote(problems, 'the files are empty')}`);
  }
  warnSkippedLines(problems, warn);
  return examples;
}
