#!/usr/bin/env node
/**
 * Completes package-lock.json with the other platforms' rollup binaries.
 *
 * Why: the npm registry this project is installed from carries rollup's native packages for
 * Linux only. `npm install` skips the missing optional ones and leaves them out of the lock, and
 * `npm ci` then calls the lock "out of sync" and refuses to install. Listing them with their
 * `os`/`cpu`/`libc` fields (as a full registry would) makes `npm ci` skip them by platform
 * instead. Run it after any `npm install` that rewrites the lock; it is idempotent.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const PREFIX = '@rollup/rollup-';
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

/** `android-arm-eabi` → { os: 'android', cpu: 'arm' }; `linux-x64-musl` → also libc musl. */
function platformOf(suffix) {
  const [os, ...rest] = suffix.split('-');
  const cpuPart = rest.join('-');
  const cpu = cpuPart.startsWith('arm-') ? 'arm' : cpuPart.split('-')[0];
  const libc = /-(gnu|gnueabihf)$/.test(cpuPart) ? 'glibc' : /-musl(eabihf)?$/.test(cpuPart) ? 'musl' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const meta of Object.values(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (!name.startsWith(PREFIX) || key in packages) continue;
    const { os, cpu, libc } = platformOf(name.slice(PREFIX.length));
    packages[key] = { version, cpu: [cpu], dev: true, ...(libc ? { libc: [libc] } : {}), license: 'MIT', optional: true, os: [os] };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(LOCK, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform entries added`);
