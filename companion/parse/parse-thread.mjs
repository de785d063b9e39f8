/**
 * A parse thread's entry point (`parse-pool.ts`). Plain JavaScript because a worker thread does
 * not inherit the loader its parent registered: it registers tsx's itself (harmless when
 * `--import tsx` came with the inherited execArgv), then loads the TypeScript that does the work.
 */
import { register } from 'tsx/esm/api';

register();
await import('./parse-thread.ts');
