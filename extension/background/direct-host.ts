/**
 * Firefox: the MV3 background is an event page, a document that can construct a Worker itself.
 * The Worker lives as long as the event page; when Firefox unloads the page, the next event
 * starts both again and the Worker reloads its model from IndexedDB.
 */
import { handOverPort, type PortSource } from './worker-host.ts';

export function createDirectPortSource(): PortSource {
  let worker: Worker | null = null;
  return {
    kind: 'direct',
    async connect() {
      worker ??= new Worker(new URL('../worker/index.ts', import.meta.url), { type: 'module', name: 'linkscent-worker' });
      return handOverPort(worker);
    },
    async dispose() {
      worker?.terminate();
      worker = null;
    },
  };
}
