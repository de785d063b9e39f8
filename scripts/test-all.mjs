#!/usr/bin/env node
/**
 * The README's test command on a fresh machine: install what the tests need, then run them all.
 *
 *   1. Chromium from Debian (the end-to-end tests load the built extension into it), when
 *      /usr/bin/chromium is missing and we may run apt-get (root).
 *   2. `npm ci`: exactly the locked dependencies (better-sqlite3 builds from source here).
 *   3. `vitest run`: unit, DOM, integration and end-to-end tiers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`test-all: "${command} ${args.join(' ')}" failed with exit code ${result.status ?? result.signal}`);
    process.exit(result.status || 1);
  }
}

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  } else {
    console.error(`test-all: ${CHROMIUM} is missing; install Debian's chromium (sudo apt-get install chromium) and run again`);
    process.exit(1);
  }
}
run('npm', ['ci']);
run('npx', ['vitest', 'run']);
