#!/usr/bin/env node
/**
 * The `linkscent` command (package.json "bin"). Plain JavaScript so that `npx linkscent` needs no
 * build step: it runs the command line's bundle (`dist/companion/`, `scripts/build-cli.mjs`,
 * built by npm after every install) when that is newer than every file of companion/ and shared/,
 * else the TypeScript itself through tsx's loader. So an edit is never run stale, and a process
 * that runs the bundle carries neither tsx's loader nor its transpiling (about 35 MB of resident
 * memory and most of a second of start-up). LINKSCENT_FROM_SOURCE=1 runs the TypeScript always.
 *
 * It exits with main()'s code explicitly: a finished command must not linger on an open handle
 * (a keep-alive socket, a timer). `serve` resolves only when the service stops.
 * Nothing here holds the process open while a command runs: work that is waiting (a per-host
 * politeness delay) keeps the event loop alive by itself, with a ref'd timer.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bundleDir = join(root, 'dist', 'companion');

/** The newest modification time of the files under `dir`, in ms. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function bundleIsCurrent() {
  if (process.env.LINKSCENT_FROM_SOURCE) return false;
  let built;
  try {
    built = statSync(join(bundleDir, 'main.mjs')).mtimeMs;
  } catch {
    return false; // never built (npm ran with --ignore-scripts)
  }
  return newest(join(root, 'companion')) <= built && newest(join(root, 'shared')) <= built;
}

let modules;
if (bundleIsCurrent()) {
  const load = (name) => import(pathToFileURL(join(bundleDir, `${name}.mjs`)).href);
  modules = { heapGrowth: () => load('heap-growth'), main: () => load('main') };
} else {
  const { register } = await import('tsx/esm/api');
  register();
  modules = { heapGrowth: () => import('../platform/heap-growth.ts'), main: () => import('../cli/main.ts') };
}
// Before any work: a crawl's heap would otherwise grow to 4× what is live, and its young generation
// to 32 MiB (platform/heap-growth.ts).
const { limitHeapGrowth, limitYoungGeneration } = await modules.heapGrowth();
limitHeapGrowth();
limitYoungGeneration();
const { main } = await modules.main();
const code = await main(process.argv.slice(2));
process.exit(code);
