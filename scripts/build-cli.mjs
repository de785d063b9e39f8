#!/usr/bin/env node
/**
 * The command line as one bundle: `dist/companion/main.mjs` (and the chunks of the commands it
 * loads lazily; `heap-growth.mjs`, which the bin calls first; `parse-thread.cjs`, the parse
 * threads' script), built by esbuild from `companion/cli/main.ts`. npm runs it after every install
 * (`prepare`); `companion/bin/linkscent.mjs` runs the bundle when it is newer than every source
 * file, else the TypeScript through tsx, so an edit never runs stale code.
 *
 * Why: through tsx, every `linkscent` process carried tsx's loader (its module hooks run on a
 * thread of their own) and transpiled on load. Measured: plain node 39 MB resident, node with
 * tsx 72-79 MB, before any of our code; a crawl's start-up spent most of its first second
 * loading modules.
 *
 * Packages stay outside the bundle (`packages: 'external'`): jieba-wasm reads its .wasm next to
 * itself, better-sqlite3 is native. Files read at run time are found from the package's root
 * (`companion/platform/package-root.ts`), two directories up from the bundle as from the source.
 *
 *   node scripts/build-cli.mjs [--outdir dist/NAME]
 */
import { rmSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
// --outdir DIR (tests): two directories below the root, as dist/companion is, for package-root.ts.
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? resolve(root, process.argv[at + 1]) : `${root}dist/companion`;
if (relative(root, outdir).split(sep).length !== 2) {
  console.error(`build-cli: --outdir must lie two directories below the package root, got ${outdir}`);
  process.exit(2);
}

rmSync(outdir, { recursive: true, force: true });
try {
  await build({
    entryPoints: { main: `${root}companion/cli/main.ts`, 'heap-growth': `${root}companion/platform/heap-growth.ts` },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  // The parse threads' script, beside the bundle that starts them: read by parse/thread-script.ts
  // instead of bundling it again at each crawl's start (the same options as its own build there).
  await build({
    entryPoints: [`${root}companion/parse/parse-thread.ts`],
    outfile: `${outdir}/parse-thread.cjs`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
} catch (error) {
  // esbuild has printed what failed; the bin runs the TypeScript meanwhile.
  console.error(`build-cli: the command line's bundle was not built: ${error.message.split('\n')[0]}`);
  process.exit(1);
}
