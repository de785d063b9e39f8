/**
 * The offscreen document (Chromium only): it exists to host the scoring Worker, because the
 * service worker cannot. It starts the Worker once and forwards each MessagePort the service
 * worker sends (one per service-worker lifetime) to it; comlink traffic then flows between the
 * service worker and the Worker without passing through here.
 */
import { isWorkerConnect, WORKER_CONNECT } from '../messages/worker-api.ts';

const worker = new Worker(new URL('../worker/index.ts', import.meta.url), { type: 'module', name: 'linkscent-worker' });

navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
  // Only our own service worker can reach this listener; check the shape all the same.
  const port = event.ports[0];
  if (!isWorkerConnect(event.data) || port === undefined) return;
  worker.postMessage({ type: WORKER_CONNECT }, [port]);
});
// Messages sent before this point were queued; start delivering them.
navigator.serviceWorker.startMessages();
