/**
 * The bench runner's pure parts (scripts/bench.mjs): discovery and order of bench/*-bench.ts,
 * the command line, and which benches need the corpus. The runner itself is not started here.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_ORDER, discoverBenches, needsCorpus, parseBenchArgs, selectBenches, stamp } from '../../scripts/bench.mjs';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkscent-bench-'));
  for (const name of ['zeta-bench.ts', 'extension-bench.ts', 'alpha-bench.ts', 'pipeline-bench.ts', 'crawl-bench.ts', 'notes.md', 'bench.ts', 'x-bench.mjs']) {
    writeFileSync(join(dir, name), '');
  }
  mkdirSync(join(dir, 'support-bench.ts')); // a folder, not a bench
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench runner', () => {
  it('discovers <name>-bench.ts files: pipeline, crawl, extension first, then the rest by name', () => {
    expect(BENCH_ORDER).toEqual(['pipeline', 'crawl', 'extension']);
    const benches = discoverBenches(dir);
    expect(benches.map((bench) => bench.name)).toEqual(['pipeline', 'crawl', 'extension', 'alpha', 'zeta']);
    expect(benches[0]!.file).toBe(join(dir, 'pipeline-bench.ts'));
  });

  it('finds the repository\'s own pipeline bench', () => {
    expect(discoverBenches().map((bench) => bench.name)).toContain('pipeline');
  });

  it('parses names and options; a bench may be named with or without its suffix', () => {
    expect(parseBenchArgs([])).toEqual({ names: [], skipFetch: false, list: false, help: false });
    expect(parseBenchArgs(['pipeline', 'crawl-bench.ts', '--skip-fetch']).names).toEqual(['pipeline', 'crawl']);
    expect(parseBenchArgs(['--list']).list).toBe(true);
    expect(() => parseBenchArgs(['--reps=3'])).toThrow(/unknown option --reps=3/);
  });

  it('selects benches by name in run order, and names the available ones for a typo', () => {
    const benches = discoverBenches(dir);
    expect(selectBenches(benches, []).length).toBe(5);
    expect(selectBenches(benches, ['zeta', 'pipeline']).map((bench) => bench.name)).toEqual(['pipeline', 'zeta']);
    expect(() => selectBenches(benches, ['pipe'])).toThrow(/no bench named pipe \(available: pipeline, crawl, extension, alpha, zeta\)/);
  });

  it('tells a bench that cannot run without the Debian corpus from its imports or its tag', () => {
    expect(needsCorpus("import { loadCorpus } from './support/corpus.ts';")).toBe(true);
    expect(needsCorpus("import { startLocalWeb } from './support/local-web.ts';")).toBe(true);
    expect(needsCorpus(' * @bench-needs corpus\n')).toBe(true);
    // Naming the folder is not needing it: the extension bench falls back to generated text.
    expect(needsCorpus("// reads bench/data/sites when present\nimport { haveDocs } from './extension/doc-pages.ts';")).toBe(false);
  });

  it('classifies the repository\'s benches', () => {
    const needs = Object.fromEntries(discoverBenches().map((bench) => [bench.name, needsCorpus(readFileSync(bench.file, 'utf8'))]));
    expect(needs.pipeline).toBe(true);
  });

  it('stamps result files with a sortable UTC time', () => {
    expect(stamp(new Date('2026-11-23T09:41:07.123Z'))).toBe('2026-11-23T09-41-07Z');
  });
});
