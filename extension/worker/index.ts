/**
 * The scoring Web Worker's entry. It loads jieba-wasm once, opens the shared Dexie schema on the
 * browser's IndexedDB, and exposes `WorkerApi` with comlink on every port the background hands
 * it (one per service-worker or event-page lifetime), `scoreLinks`' verdicts packed for the hop
 * (`WorkerWireApi`). The model stays warm here between pages.
 *
 * The tokenizer makes exactly the companion's tokens (shared `createTokenizer`, no stop words,
 * jieba with HMM; `worker-tokenizer.ts`), so a model trained on either side scores the same here.
 */
import * as Comlink from 'comlink';
import { packVerdicts } from '../messages/packed-verdicts.ts';
import { isWorkerConnect, type WorkerWireApi } from '../messages/worker-api.ts';
import { openExtensionDb } from '../storage/database.ts';
import { createDexieRepository } from './dexie-repository.ts';
import { createEngine, type Engine } from './engine.ts';
import { loadJieba } from './jieba.ts';
import { createWorkerTokenizer } from './worker-tokenizer.ts';

let engine: Promise<Engine> | null = null;

function ready(): Promise<Engine> {
  engine ??= (async () => {
    const cut = await loadJieba();
    const db = openExtensionDb();
    await db.open();
    return createEngine({ tokenizer: createWorkerTokenizer(cut), repository: createDexieRepository(db) });
  })().catch((error: unknown) => {
    engine = null; // let the next call try again
    throw error;
  });
  return engine;
}

const api: WorkerWireApi = {
  ping: async () => {
    await ready();
    return 'pong';
  },
  // Packed for the hop to the background, which unpacks them (`WorkerHost`; packed-verdicts.ts says why).
  scoreLinks: async (...args) => packVerdicts(await (await ready()).scoreLinks(...args)),
  observe: async (...args) => (await ready()).observe(...args),
  labelTarget: async (...args) => (await ready()).labelTarget(...args),
  dropTopic: async (...args) => (await ready()).dropTopic(...args),
  retrain: async (...args) => (await ready()).retrain(...args),
  counts: async (...args) => (await ready()).counts(...args),
  evaluateHeldOut: async (...args) => (await ready()).evaluateHeldOut(...args),
  exportDatabase: async () => (await ready()).exportDatabase(),
  importDatabase: async (...args) => (await ready()).importDatabase(...args),
  exportTopic: async (...args) => (await ready()).exportTopic(...args),
  mergeLabels: async (...args) => (await ready()).mergeLabels(...args),
};

self.addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0];
  if (isWorkerConnect(event.data) && port !== undefined) Comlink.expose(api, port);
});
