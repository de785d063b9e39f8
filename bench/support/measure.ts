/**
 * Small helpers for the benchmarks: wall-clock timing, medians, memory snapshots and plain-text
 * tables. Figures are measured with `process.hrtime.bigint()` and summarised by the median of
 * several repetitions after a warm-up; nothing here asserts on a time.
 */

import { loadavg } from 'node:os';

/** Milliseconds `fn` took, by `process.hrtime.bigint()`. */
export function timeMs(fn: () => void): number {
  const started = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median, min and max of repeated measurements. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function summarize(values: readonly number[]): Summary {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), runs: values.length };
}

/** Runs `global.gc` when Node was started with `--expose-gc` (the bench runner does); else nothing. */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return false;
  gc();
  gc(); // a second pass frees what the first one's finalizers released
  return true;
}

export interface MemorySnapshot {
  /** V8 heap in use, bytes. */
  heapUsed: number;
  /** Resident set size, bytes (includes jieba's WebAssembly memory and the corpus's buffers). */
  rss: number;
  /** Off-heap memory V8 accounts for (array buffers, WebAssembly memory), bytes. */
  external: number;
}

/** Memory now, after a full collection when one can be forced. */
export function memorySnapshot(): MemorySnapshot {
  collectGarbage();
  const { heapUsed, rss, external } = process.memoryUsage();
  return { heapUsed, rss, external };
}

/** Peak resident set size of this process so far, bytes. */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Decimal megabytes (10^6 bytes), as MB/s figures use. */
export function mb(bytes: number): number {
  return bytes / 1e6;
}

/** `value` with `digits` significant figures at most, thousands grouped: 12,345 / 123.4 / 1.234. */
export function fmt(value: number, digits = 4): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value) >= 1 ? Math.floor(Math.log10(Math.abs(value))) + 1 : 1;
  const decimals = Math.max(0, Math.min(3, digits - magnitude));
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A signed megabyte figure: `+12.3 MB`. */
export function fmtMbDelta(bytes: number): string {
  return `${bytes >= 0 ? '+' : '−'}${fmt(Math.abs(mb(bytes)), 3)} MB`;
}

/**
 * A plain-text table: the first row is the header, a rule under it; columns after the first are
 * right-aligned (they hold numbers), but for those `leftAligned` names (they hold text).
 */
export function table(rows: readonly (readonly string[])[], leftAligned: readonly number[] = []): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - displayWidth(cell));
        return i === 0 || leftAligned.includes(i) ? cell + pad : pad + cell;
      })
      .join('  ')
      .trimEnd();
  const [header, ...body] = rows;
  if (header === undefined) return '';
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Columns a string takes in a terminal: wide (CJK) characters count two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(character) ? 2 : 1;
  return width;
}

/** The machine's load averages, printed beside figures that depend on it. */
export function loadLine(): string {
  return `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}

/** `text` with every line indented under a bench's numbered heading. */
export function indent(text: string): string {
  return text.replace(/^/gm, '   ');
}
