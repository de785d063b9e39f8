/**
 * WebAssembly kept on V8's baseline compiler (Liftoff), for the commands that crawl.
 *
 * jieba-wasm (`jieba-node.ts`) is the companion's one WebAssembly module. V8 compiles it with
 * Liftoff at load, then recompiles each function that gets hot with TurboFan, on its background
 * threads. For jieba that is the cut path (the regex engine, the DAG search), functions that
 * Rust has inlined into very large ones: one compile took 8.8 MB of compiler zones (heaptrack,
 * the frontier bench's nb crawl), and the compiler threads' malloc arenas stayed larger once the
 * zones were freed (`malloc_trim` gave back 7 MB of the difference). Measured on 200,000 distinct
 * cuts after the dictionary was built: the threads' arenas 14.9 MB with TurboFan, 3.7 without,
 * the process 141–168 MB against 121–130; on the frontier bench's nb crawl (issue 14: peak RSS
 * ≤ 300 MB) the arenas were 31–45 MB against 19–29.
 *
 * What it costs: a cut runs on Liftoff's code, 8.0 µs against TurboFan's 6.4 once compiled
 * (the first 50,000 cuts cost 12 µs each with TurboFan, compiling), and building jieba's
 * dictionary (`loadNodeTokenizer`'s warm-up) takes 330 ms against 260. So only crawl and serve
 * use it, where memory is a goal and tokenizing a page's anchors is a small part of its cost;
 * train and eval, which tokenize whole corpora and end, keep TurboFan.
 *
 * V8 decides a module's tiers when it compiles it, so this must run before jieba-wasm is
 * first imported; set later it changes nothing (measured).
 */
import { setFlagsFromString } from 'node:v8';

/** Compiles WebAssembly loaded from now on with Liftoff only, for the whole process. */
export function keepWasmOnBaseline(): void {
  setFlagsFromString('--liftoff-only');
}
