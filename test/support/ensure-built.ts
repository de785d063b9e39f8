/**
 * Builds the extension for a target unless dist/<target> is newer than every source it is built
 * from, so the build and end-to-end tests always look at the current code without rebuilding
 * on every run. Test files run in parallel workers: a lock directory makes the second one wait
 * for the first one's build (and then find it fresh) instead of emptying dist/ under it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');

const SOURCES = ['extension', 'shared', 'public', 'manifest.config.ts', 'vite.config.ts', 'scripts/build-extension.mjs', 'scripts/check-extension.mjs', 'package.json'];

function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) visit(join(repoRoot, path));
  return newest;
}

export function distDir(target: 'chromium' | 'firefox'): string {
  return join(repoRoot, 'dist', target);
}

const LOCK = join(repoRoot, 'dist', '.build-lock');
/** A lock older than this was left by a killed run. */
const STALE_LOCK_MS = 10 * 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withBuildLock<T>(fn: () => T): T {
  mkdirSync(join(repoRoot, 'dist'), { recursive: true });
  const deadline = Date.now() + STALE_LOCK_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      const age = existsSync(LOCK) ? Date.now() - statSync(LOCK).mtimeMs : 0;
      if (age > STALE_LOCK_MS || Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      else sleepSync(200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds the stale targets in one run; returns the build's output, throws when it fails. */
export function ensureBuilt(...targets: ('chromium' | 'firefox')[]): string {
  return withBuildLock(() => buildStale(targets));
}

function buildStale(targets: readonly ('chromium' | 'firefox')[]): string {
  const sources = newestMtime(SOURCES);
  const stale = targets.filter((target) => {
    const manifest = join(distDir(target), 'manifest.json');
    return !existsSync(manifest) || statSync(manifest).mtimeMs <= sources;
  });
  if (stale.length === 0) return '';
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts/build-extension.mjs'), ...stale], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`building ${stale.join(' and ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}
