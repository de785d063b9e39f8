/**
 * The heap in use after two full collections, for tests that check what a component keeps alive
 * (a V8 slice or rope of a page held through a cache key or a URL). `--expose-gc` set at run
 * time gives `gc` to a new context only, hence the fresh one.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
