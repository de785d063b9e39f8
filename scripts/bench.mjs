#!/usr/bin/env node
/**
 * `npm run bench [-- <name>...]`: the benchmarks, apart from the tests (bench/README.md).
 *
 *   0. scripts/build-cli.mjs builds the command line's bundle, which the bin then runs.
 *   1. bench/fetch-debian-docs.sh fetches the real HTML corpus once (idempotent). Without apt,
 *      or when it fails, one line says so and the benches that need the corpus are skipped.
 *   2. Every bench/<name>-bench.ts runs in its own `node --expose-gc --import tsx` child, so its
 *      memory figures are its own: pipeline, crawl, extension first, then any others by name.
 *      Names on the command line pick benches (`npm run bench -- pipeline`).
 *   3. What a bench prints goes to the terminal and to bench/data/results/<name>-<stamp>.txt; a
 *      bench may also write JSON to the path in LINKSCENT_BENCH_JSON (<name>-<stamp>.json).
 *
 * A failing bench gets one line (name, exit code, where its output is) and the others still
 * run; the exit code is then 1. Which benches need the corpus: see `needsCorpus`; skipping one
 * for want of the corpus is said, not counted a failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DIR = join(ROOT, 'bench');
export const RESULTS_DIR = join(BENCH_DIR, 'data', 'results');
const FETCH_SCRIPT = join(BENCH_DIR, 'fetch-debian-docs.sh');

/** Benches that run first, in this order; any other `*-bench.ts` follows alphabetically. */
export const BENCH_ORDER = ['pipeline', 'crawl', 'extension'];

const BENCH_FILE = /^([a-z0-9][a-z0-9-]*)-bench\.ts$/;

/**
 * The benches in `dir`: `{name, file}` for each `<name>-bench.ts`, in `BENCH_ORDER` then by name.
 * @param {string} [dir]
 * @returns {{name: string, file: string}[]}
 */
export function discoverBenches(dir = BENCH_DIR) {
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && BENCH_FILE.test(entry.name))
    .map((entry) => ({ name: BENCH_FILE.exec(entry.name)[1], file: join(dir, entry.name) }));
  const rank = (name) => {
    const index = BENCH_ORDER.indexOf(name);
    return index < 0 ? BENCH_ORDER.length : index;
  };
  return found.sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The command line: bench names to run (none = all), `--skip-fetch`, `--list`, `--help`.
 * Unknown options are errors, so a typo does not silently run everything.
 * @param {string[]} argv
 * @returns {{names: string[], skipFetch: boolean, list: boolean, help: boolean}}
 */
export function parseBenchArgs(argv) {
  const options = { names: [], skipFetch: false, list: false, help: false };
  for (const arg of argv) {
    if (arg === '--skip-fetch') options.skipFetch = true;
    else if (arg === '--list') options.list = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg} (known: --list, --skip-fetch, --help)`);
    else options.names.push(arg.replace(/-bench(?:\.ts)?$/, ''));
  }
  return options;
}

/**
 * The benches `names` pick out of `benches`, in run order; all of them when `names` is empty.
 * @param {{name: string, file: string}[]} benches
 * @param {string[]} names
 */
export function selectBenches(benches, names) {
  if (names.length === 0) return benches;
  const known = new Set(benches.map((bench) => bench.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`no bench named ${unknown.join(', ')} (available: ${[...known].join(', ') || 'none'})`);
  }
  return benches.filter((bench) => names.includes(bench.name));
}

/**
 * Whether a bench cannot run without the Debian corpus, from its source: it imports one of the
 * support modules that read bench/data/sites (`support/corpus.ts`, `support/local-web.ts`), or
 * says `@bench-needs corpus` (a bench that falls back to generated text says nothing).
 * @param {string} source
 */
export function needsCorpus(source) {
  return /from\s+['"]\.\/support\/(?:corpus|local-web)(?:\.ts)?['"]|@bench-needs\s+corpus\b/.test(source);
}

/** `2026-11-23T09-41-07Z`: sorts by time, safe in file names. */
export function stamp(date = new Date()) {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}

/** Runs the fetch script; returns `undefined` when the corpus is there, else why not (one line). */
function fetchCorpus() {
  if (!existsSync(FETCH_SCRIPT)) return `${relative(ROOT, FETCH_SCRIPT)} is missing`;
  const result = spawnSync('bash', [FETCH_SCRIPT], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.error) return `could not run bash: ${result.error.message}`;
  if (result.status === 0) return undefined;
  const last = result.stderr.trim().split('\n').at(-1) || `exit code ${result.status ?? result.signal}`;
  return `${relative(ROOT, FETCH_SCRIPT)} failed: ${last}`;
}

function gitCommit() {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
  return `${result.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}`;
}

/**
 * One bench in its own process; its output echoed and kept. Resolves to the exit status.
 * @returns {Promise<{code: number | null, signal: string | null, seconds: number, output: string}>}
 */
function runBench(bench, jsonPath) {
  return new Promise((resolvePromise) => {
    const started = process.hrtime.bigint();
    const chunks = [];
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', bench.file], {
      cwd: ROOT,
      env: { ...process.env, LINKSCENT_BENCH_JSON: jsonPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (stream) => (chunk) => {
      chunks.push(chunk);
      stream.write(chunk);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    const done = (code, signal) =>
      resolvePromise({
        code,
        signal,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        output: Buffer.concat(chunks).toString('utf8'),
      });
    child.on('error', (error) => {
      chunks.push(Buffer.from(`bench: could not start: ${error.message}\n`));
      done(1, null);
    });
    child.on('close', done);
  });
}

async function main() {
  let options;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${error.message}`);
    return 2;
  }
  const benches = discoverBenches();
  if (options.help) {
    console.log('usage: npm run bench [-- [--list] [--skip-fetch] [name...]]');
    console.log(`benches: ${benches.map((bench) => bench.name).join(', ') || 'none'} (bench/<name>-bench.ts); results in ${relative(ROOT, RESULTS_DIR)}/`);
    return 0;
  }
  if (options.list) {
    for (const bench of benches) console.log(`${bench.name}\t${relative(ROOT, bench.file)}`);
    return 0;
  }
  let selected;
  try {
    selected = selectBenches(benches, options.names);
  } catch (error) {
    console.error(`bench: ${error.message}`);
    return 2;
  }
  if (selected.length === 0) {
    console.error('bench: no bench/*-bench.ts found');
    return 1;
  }

  // The benches run the `linkscent` bin, which runs the command line's bundle only when it is
  // newer than the sources (companion/bin/linkscent.mjs): built here, so a bench measures what an
  // install runs, not the TypeScript through tsx after an edit.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] });
  if (built.status !== 0) console.log('bench: the command line bundle was not built; the benches run the TypeScript through tsx');

  const noCorpus = options.skipFetch ? undefined : fetchCorpus();
  if (noCorpus) console.log(`bench: no corpus (${noCorpus}); skipping the benches that need bench/data/sites`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const header = [
    `# ${new Date().toISOString()}  node ${process.version}  ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}  commit ${gitCommit()}`,
  ];
  const failed = [];
  const summary = [];
  for (const bench of selected) {
    const source = readFileSync(bench.file, 'utf8');
    if (noCorpus && needsCorpus(source)) {
      console.log(`bench: ${bench.name}: skipped, it needs the corpus`);
      summary.push(`${bench.name}: skipped (no corpus)`);
      continue;
    }
    const base = join(RESULTS_DIR, `${bench.name}-${stamp()}`);
    console.log(`\n=== ${bench.name} (${relative(ROOT, bench.file)}) ===`);
    const result = await runBench(bench, `${base}.json`);
    const command = `$ node --expose-gc --import tsx ${relative(ROOT, bench.file)}`;
    writeFileSync(`${base}.txt`, [...header, command, '', result.output].join('\n'));
    const where = relative(ROOT, `${base}.txt`);
    if (result.code === 0) {
      summary.push(`${bench.name}: ok in ${result.seconds.toFixed(1)} s → ${where}`);
    } else {
      const how = result.signal ? `killed by ${result.signal}` : `exit code ${result.code}`;
      console.log(`bench: ${bench.name} FAILED (${how}) after ${result.seconds.toFixed(1)} s; output in ${where}`);
      summary.push(`${bench.name}: FAILED (${how}) → ${where}`);
      failed.push(bench.name);
    }
  }
  console.log(`\nbench: ${summary.join('; ')}`);
  return failed.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main();
}
