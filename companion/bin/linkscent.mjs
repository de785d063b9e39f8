#!/usr/bin/env node
/**
 * The `linkscent` command (package.json "bin"). Plain JavaScript so that `npx linkscent` needs no
 * build step: it registers tsx's ESM loader, then runs the TypeScript entry point.
 *
 * While the command runs, one ref'd timer holds the process open: libraries may rightly unref
 * their timers (a politeness delay, a cache sweep), and a crawl waiting only on such a timer
 * must not be ended by Node as an "unsettled top-level await" (exit 13, no message).
 *
 * It exits with main()'s code explicitly: a finished command must not linger on an open handle
 * (a keep-alive socket, a fake-indexeddb timer). `serve` resolves only when the service stops.
 */
import { register } from 'tsx/esm/api';

register();
const keepAlive = setInterval(() => {}, 1 << 30);
const { main } = await import('../cli/main.ts');
const code = await main(process.argv.slice(2));
clearInterval(keepAlive);
process.exit(code);
