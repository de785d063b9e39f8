#!/usr/bin/env node
/**
 * The `linkscent` command (package.json "bin"). Plain JavaScript so that `npx linkscent` needs no
 * build step: it registers tsx's ESM loader, then runs the TypeScript entry point.
 *
 * It exits with main()'s code explicitly: a finished command must not linger on an open handle
 * (a keep-alive socket, a timer). `serve` resolves only when the service stops.
 * Nothing here holds the process open while a command runs: work that is waiting (a per-host
 * politeness delay) keeps the event loop alive by itself, with a ref'd timer.
 */
import { register } from 'tsx/esm/api';

register();
// Before any work: a crawl's heap would otherwise grow to 4× what is live (platform/heap-growth.ts).
const { limitHeapGrowth } = await import('../platform/heap-growth.ts');
limitHeapGrowth();
const { main } = await import('../cli/main.ts');
const code = await main(process.argv.slice(2));
process.exit(code);
