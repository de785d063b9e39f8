#!/usr/bin/env node
/**
 * The README's test command on a fresh machine: install what the tests need, then run them all.
 *
 *   1. Chromium and Firefox ESR from Debian (the end-to-end tests load the built extension into
 *      each) and redis-server (the shared-frontier tests start a real one per test file), when
 *      /usr/bin/chromium, /usr/bin/firefox-esr or /usr/bin/redis-server is missing and we may run
 *      apt-get (root).
 *   2. `npm ci`: exactly the locked dependencies (better-sqlite3 builds from source here).
 *   3. The few small Debian documentation packages the end-to-end tests serve as a real web
 *      (`test/e2e/corpus-packages.json`, a few MB), unpacked into bench/data/sites by
 *      bench/fetch-debian-docs.sh when they are not there and apt-get can download them; when it
 *      cannot, one line says so and those tests say they are skipped.
 *   4. `vitest run`: every tier of test/tiers.ts (unit, DOM, end-to-end); `npm run test:unit`,
 *      `test:dom` and `test:e2e` run one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** What the tests run besides Node: executable → Debian package (the browsers, and Redis for the shared frontier). */
const SYSTEM_PACKAGES = { '/usr/bin/chromium': 'chromium', '/usr/bin/firefox-esr': 'firefox-esr', '/usr/bin/redis-server': 'redis-server' };

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`test-all: "${command} ${args.join(' ')}" failed with exit code ${result.status ?? result.signal}`);
    process.exit(result.status || 1);
  }
}

const missing = Object.entries(SYSTEM_PACKAGES).filter(([path]) => !existsSync(path));
if (missing.length > 0) {
  const packages = missing.map(([, name]) => name);
  if (process.getuid?.() === 0) {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages]);
  } else {
    const paths = missing.map(([path]) => path).join(' and ');
    console.error(`test-all: ${paths} ${missing.length > 1 ? 'are' : 'is'} missing; install Debian's ${packages.join(' and ')} (sudo apt-get install ${packages.join(' ')}) and run again`);
    process.exit(1);
  }
}
run('npm', ['ci']);
fetchTestCorpus();
run('npx', ['vitest', 'run']);

/** Step 3: the e2e tests' documentation packages; apt's lists updated once if it does not know them. */
function fetchTestCorpus() {
  const packages = JSON.parse(readFileSync(new URL('../test/e2e/corpus-packages.json', import.meta.url), 'utf8'));
  const fetch = () => spawnSync('bash', ['bench/fetch-debian-docs.sh', ...packages], { stdio: 'inherit' }).status === 0;
  if (fetch()) return;
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' }).status === 0 && fetch()) return;
  console.error(`test-all: the documentation packages ${packages.join(', ')} could not be fetched; the end-to-end tests that serve them will be skipped`);
}
