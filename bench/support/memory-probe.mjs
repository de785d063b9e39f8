/**
 * Preloaded into a bench's child (`NODE_OPTIONS=--import <this file>`, `memoryProbeEnv`): what
 * the child's resident memory was made of when it peaked, written as JSON to
 * `LINKSCENT_MEMORY_PROBE_OUT` at exit. The frontier bench prints it beside the peak RSS, so a
 * figure says where to look (issue 14: V8's heap, jieba-wasm's linear memory, or native memory
 * such as SQLite's page cache), not only that it is too high.
 *
 * Every 50 ms: /proc/self/status (VmRSS, RssAnon, RssFile) and `process.memoryUsage()`; the
 * sample with the highest VmRSS is kept, with V8's heap spaces read then. `external` includes
 * jieba-wasm's linear memory (a WebAssembly.Memory counts as external memory in V8). The
 * polling misses peaks shorter than 50 ms, so its RSS can be below the kernel's VmHWM.
 * Plain JavaScript, so it loads before any loader.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const OUT = process.env.LINKSCENT_MEMORY_PROBE_OUT;

/** A `kB` line of /proc/self/status, in bytes. */
function statusBytes(status, key) {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

let peak;

function sample() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const rss = statusBytes(status, 'VmRSS');
  if (peak !== undefined && rss <= peak.rss) return;
  const usage = process.memoryUsage();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.physical_space_size]));
  peak = {
    atMs: Math.round(performance.now()),
    rss,
    rssAnon: statusBytes(status, 'RssAnon'),
    rssFile: statusBytes(status, 'RssFile'),
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    newSpace: spaces.new_space ?? 0,
    oldSpace: spaces.old_space ?? 0,
    largeObjectSpace: spaces.large_object_space ?? 0,
  };
}

if (OUT) {
  setInterval(sample, 50).unref();
  process.on('exit', () => {
    sample();
    writeFileSync(OUT, JSON.stringify(peak));
  });
}
