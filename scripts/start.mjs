#!/usr/bin/env node
/**
 * The README's main command (`npm start`) on a fresh machine:
 *   1. install the npm dependencies if they are missing;
 *   2. build the extension for Chromium and Firefox into dist/;
 *   3. start the companion service (`linkscent serve`) on its embedded default store, in the
 *      foreground, until Ctrl-C.
 */
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: "${command} ${args.join(' ')}" failed with exit code ${result.status ?? result.signal}`);
    process.exit(result.status || 1);
  }
}

if (!existsSync('node_modules/.package-lock.json')) run('npm', ['install']);
run('npm', ['run', 'build']);
console.log('\nExtension built: load dist/chromium (chrome://extensions, Developer mode, Load unpacked)');
console.log('or dist/firefox (about:debugging, This Firefox, Load Temporary Add-on).\n');

const service = spawn(process.execPath, ['companion/bin/linkscent.mjs', 'serve', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal));
service.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
