/**
 * The parse thread's code (`parse-thread.ts` and what it imports: the shared segment builder,
 * contexts, htmlparser2) as one CommonJS script, bundled by esbuild when a pool first starts.
 *
 * Why a bundle: a worker thread does not inherit the loader its parent registered, so a thread
 * that loads the TypeScript itself must register tsx, whose module hooks run on a thread of their
 * own. Measured on one idle process: a thread loading through tsx added 28 MB of RSS and was
 * ready in 200–350 ms; the bundle, run with `eval`, adds 9 MB and is ready in 160 ms. esbuild is
 * what tsx transpiles with and what builds the command line's own bundle (`scripts/build-cli.mjs`).
 *
 * When the command line runs as its bundle (`scripts/build-cli.mjs`), the script was built with it
 * and lies beside this module as `parse-thread.cjs`: read from there. From the TypeScript, it is
 * built once per process, asynchronously (esbuild works in a process of its own, stopped once the
 * bundle is built). Either way the event loop goes on fetching, and pages are parsed on it until
 * the threads are ready.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../platform/package-root.ts';

const ENTRY = fileURLToPath(packageFile('companion/parse/parse-thread.ts'));
/** Where the command line's bundle keeps the script; no such file beside the TypeScript. */
const PREBUILT = new URL('./parse-thread.cjs', import.meta.url);

let bundled: Promise<string> | undefined;

/** The script a parse thread runs (`new Worker(code, { eval: true })`). Rejects when esbuild cannot bundle it. */
export function parseThreadScript(): Promise<string> {
  bundled ??= readFile(PREBUILT, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    return bundle();
  });
  return bundled;
}

async function bundle(): Promise<string> {
  // Loaded here, not at the top: every command's start-up would pay for esbuild's module.
  const { build, stop } = await import('esbuild');
  // The options build-cli.mjs builds parse-thread.cjs with.
  const result = await build({ entryPoints: [ENTRY], bundle: true, format: 'cjs', platform: 'node', target: 'node20', write: false, logLevel: 'silent' });
  // esbuild's service process would otherwise stay for the life of the crawl; a later build
  // (none here) would start another.
  await stop();
  return result.outputFiles[0]!.text;
}
