/**
 * Chromium: the Worker lives in an offscreen document (reason WORKERS), because a MV3 service
 * worker cannot construct a Worker and a content script must not start one.
 *
 * The service worker asks the offscreen document (a window client of the extension's origin,
 * found with `clients.matchAll`) to forward one end of a fresh MessageChannel to its Worker, so
 * comlink traffic flows service worker ⇄ Worker directly; the document only makes the
 * introduction. After a service-worker restart the document and its warm Worker are still there:
 * a new channel is all it takes.
 */
import { handOverPort, type PortSource } from './worker-host.ts';

export const OFFSCREEN_PATH = 'extension/offscreen/offscreen.html';

/** The slice of `chrome.*` used here (no @types/chrome in this project). */
interface ChromeOffscreenApi {
  runtime: {
    getURL(path: string): string;
    getContexts(filter: { contextTypes: string[]; documentUrls?: string[] }): Promise<unknown[]>;
  };
  offscreen: {
    createDocument(parameters: { url: string; reasons: string[]; justification: string }): Promise<void>;
    closeDocument(): Promise<void>;
  };
}

interface WindowClientLike {
  url: string;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

interface ServiceWorkerScopeLike {
  clients: { matchAll(options: { includeUncontrolled: boolean; type: 'window' }): Promise<readonly WindowClientLike[]> };
}

export function createOffscreenPortSource(
  chromeApi = (globalThis as unknown as { chrome: ChromeOffscreenApi }).chrome,
  scope = globalThis as unknown as ServiceWorkerScopeLike,
): PortSource {
  const documentUrl = chromeApi.runtime.getURL(OFFSCREEN_PATH);
  let creating: Promise<void> | null = null;

  async function ensureDocument(): Promise<void> {
    const existing = await chromeApi.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [documentUrl] });
    if (existing.length > 0) return;
    // Two events at once must not both create it: the second call would throw.
    creating ??= chromeApi.offscreen
      .createDocument({
        url: OFFSCREEN_PATH,
        reasons: ['WORKERS'],
        justification: 'Scores links with a Naive Bayes model and a WASM Chinese tokenizer in a Web Worker.',
      })
      .finally(() => {
        creating = null;
      });
    await creating;
  }

  async function findDocument(): Promise<WindowClientLike | undefined> {
    const windows = await scope.clients.matchAll({ includeUncontrolled: true, type: 'window' });
    return windows.find((client) => client.url === documentUrl);
  }

  return {
    kind: 'offscreen',
    async connect() {
      await ensureDocument();
      // The document is a client as soon as it exists; its message queue holds our message
      // until its script has attached the listener.
      let client = await findDocument();
      for (let attempt = 0; client === undefined && attempt < 20; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        client = await findDocument();
      }
      if (client === undefined) throw new Error(`the offscreen document ${documentUrl} is not among the service worker's clients`);
      return handOverPort(client);
    },
    async dispose() {
      const existing = await chromeApi.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [documentUrl] });
      if (existing.length > 0) await chromeApi.offscreen.closeDocument();
    },
  };
}
