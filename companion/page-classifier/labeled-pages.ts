/**
 * The page classifier's training file: JSON lines of `{url, label}` (the page is fetched) or
 * `{url, html, label}` (the page is given). Like labeled links, a bad line is reported with its
 * file and line number and skipped; a page that cannot be fetched is reported and skipped; the
 * command fails only when nothing usable is left.
 */
import type { Label } from '../../shared/model/types.ts';
import { parseJsonLines, readTextFile } from '../platform/input-files.ts';

export interface LabeledPageLine {
  url: string;
  label: Label;
  /** The page's HTML when the line carries it; otherwise it is fetched. */
  html?: string;
}

export interface LabeledPagesFile {
  pages: LabeledPageLine[];
  /** `file:line: problem`, one per bad line. */
  problems: string[];
}

function problemOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  if (!('url' in record)) return 'missing field "url"';
  if (typeof record.url !== 'string') return 'field "url" must be a string';
  if (!/^https?:\/\//i.test(record.url) && typeof record.html !== 'string') {
    return `field "url" must be an http(s) URL when there is no "html", got ${JSON.stringify(record.url)}`;
  }
  if (!('label' in record)) return 'missing field "label"';
  if (record.label !== 0 && record.label !== 1) return `field "label" must be 0 or 1, got ${JSON.stringify(record.label)}`;
  if ('html' in record && typeof record.html !== 'string') return 'field "html" must be a string';
  return null;
}

function toPageLine(record: Record<string, unknown>): LabeledPageLine {
  const page: LabeledPageLine = { url: record.url as string, label: record.label as Label };
  if (typeof record.html === 'string') page.html = record.html;
  return page;
}

export function parseLabeledPages(text: string, name: string): LabeledPagesFile {
  const { items: pages, problems } = parseJsonLines(text, name, problemOf, toPageLine);
  return { pages, problems };
}

/** Reads the file; throws an `InputFileError` naming it when it cannot be read. */
export function readLabeledPages(path: string): LabeledPagesFile {
  return parseLabeledPages(readTextFile(path), path);
}
