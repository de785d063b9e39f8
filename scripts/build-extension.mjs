#!/usr/bin/env node
/**
 * `npm run build`: the extension for both browsers.
 *
 *   dist/chromium/   crxjs build: module service worker + offscreen document hosting the Worker
 *   dist/firefox/    crxjs build with browser 'firefox': an event page (`background.scripts`)
 *                    hosting the Worker directly, and `browser_specific_settings.gecko.id`
 *
 * After each build the emitted manifest is checked: every file it names must exist in the
 * output, and the background must have the shape its browser needs. A broken build fails here,
 * not when a user loads it.
 *
 *   node scripts/build-extension.mjs [chromium|firefox]...   (default: both)
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { checkBuiltExtension } from './check-extension.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TARGETS = ['chromium', 'firefox'];

const requested = process.argv.slice(2);
for (const target of requested) {
  if (!TARGETS.includes(target)) {
    console.error(`build-extension: unknown target "${target}"; use ${TARGETS.join(' or ')}`);
    process.exit(2);
  }
}

for (const target of requested.length > 0 ? requested : TARGETS) {
  const started = performance.now();
  process.env.LINKSCENT_TARGET = target;
  await build({ root, configFile: join(root, 'vite.config.ts'), mode: 'production' });
  const outDir = join(root, 'dist', target);
  // The UI engineer may keep the locales beside the code instead of in public/.
  if (!existsSync(join(root, 'public/_locales')) && existsSync(join(root, 'extension/_locales'))) {
    cpSync(join(root, 'extension/_locales'), join(outDir, '_locales'), { recursive: true });
  }
  const problems = checkBuiltExtension(outDir, target);
  if (problems.length > 0) {
    console.error(`build-extension: dist/${target} is not loadable:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`build-extension: dist/${target} built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
