/**
 * Worker throughput, measured from the service worker without touching production code.
 *
 * The scoring Worker exposes `WorkerApi` with comlink on every port it is handed (worker-api.ts):
 * the service worker finds the offscreen document among its clients and posts it a
 * `linkscent/connect` message with a fresh MessageChannel port, exactly as offscreen-host.ts
 * does. The probe then speaks comlink's wire format on that port (`{ id, type: 'APPLY', path,
 * argumentList: [{ type: 'RAW', value }] }`, reply `{ id, type: 'RAW', value }`) and times
 * `scoreLinks` calls: the Worker's own scoring plus one structured-clone hop each way, which is
 * what every page batch pays between the service worker and the Worker.
 *
 * The probe runs as a string in the service worker (`Worker.evaluate`), so it is plain
 * JavaScript here.
 */
import type { Worker as PlaywrightWorker } from 'playwright-core';
import type { PageLink } from '../../extension/messages/page-links.ts';
import type { Topic } from '../../shared/model/types.ts';

export interface ProbeSet {
  label: string;
  links: PageLink[];
  /** Links per `scoreLinks` call (the page sends 100). */
  batch: number;
}

export interface ProbeResult {
  label: string;
  links: number;
  batch: number;
  ms: number;
  contextsPerSecond: number;
}

const PROBE = `async ({ offscreenUrl, topic, sets }) => {
  const clients = await self.clients.matchAll({ includeUncontrolled: true, type: 'window' });
  const client = clients.find((c) => c.url === offscreenUrl);
  if (!client) throw new Error('no offscreen document among the service worker clients');
  const channel = new MessageChannel();
  client.postMessage({ type: 'linkscent/connect' }, [channel.port2]);
  const port = channel.port1;
  const pending = new Map();
  port.onmessage = (event) => {
    const settle = pending.get(event.data.id);
    if (settle) { pending.delete(event.data.id); settle(event.data); }
  };
  port.start();
  let next = 0;
  const call = (name, args) => new Promise((resolve, reject) => {
    const id = 'linkscent-bench-' + (++next);
    pending.set(id, (data) => (data.type === 'HANDLER' ? reject(new Error(JSON.stringify(data.value))) : resolve(data.value)));
    port.postMessage({ id, type: 'APPLY', path: [name], argumentList: args.map((value) => ({ type: 'RAW', value })) });
  });
  await call('ping', []);
  const results = [];
  for (const { label, links, batch } of sets) {
    const start = performance.now();
    let scored = 0;
    for (let i = 0; i < links.length; i += batch) scored += (await call('scoreLinks', [topic, links.slice(i, i + batch)])).length;
    const ms = performance.now() - start;
    if (scored !== links.length) throw new Error(label + ': scored ' + scored + ' of ' + links.length);
    results.push({ label, links: links.length, batch, ms, contextsPerSecond: links.length / (ms / 1000) });
  }
  port.close();
  return results;
}`;

/** Runs the sets in order in the service worker; returns one timing per set. */
export async function probeWorker(serviceWorker: PlaywrightWorker, offscreenUrl: string, topic: Topic, sets: readonly ProbeSet[]): Promise<ProbeResult[]> {
  const input = JSON.stringify({ offscreenUrl, topic, sets });
  return serviceWorker.evaluate(`(${PROBE})(${input})`) as Promise<ProbeResult[]>;
}

/** The page's contexts as `PageLink`s; `salt` makes every text new to the tokenizer's cache. */
export function probeLinks(contexts: readonly Omit<PageLink, 'ref'>[], salt?: string): PageLink[] {
  const mark = (text: string, i: number) => (salt === undefined ? text : `${text} ${salt}x${i}`);
  return contexts.map((c, ref) => ({ ...c, ref, anchor: mark(c.anchor, ref), before: mark(c.before, ref), after: mark(c.after, ref) }));
}
