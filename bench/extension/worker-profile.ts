/**
 * A CPU profile of the scoring Worker while the probe runs (LINKSCENT_BENCH_WORKER_PROFILE).
 *
 * The Worker lives in the offscreen document, which Playwright does not list among a context's
 * pages, so neither `newCDPSession` nor `page.workers()` reaches it. Chromium is started with a
 * DevTools port as well (`devtoolsArgs`), and this module speaks CDP to that port over a
 * WebSocket (`ws`, which playwright-core bundles): it attaches to the offscreen document (flat
 * sessions), asks it to auto-attach its workers, takes the session of the one named
 * `linkscent-worker` and runs V8's sampling profiler there (`Profiler.start` / `Profiler.stop`).
 * (Attaching to the worker's own target from the browser session gave a session that never
 * answered.) The profile is a `.cpuprofile` that Chromium's DevTools
 * and `node --cpu-prof` tools read.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// playwright-core's own copy of `ws`: no dependency of ours for a bench-only tool.
const { ws: WebSocket } = require('playwright-core/lib/utilsBundle') as { ws: new (url: string, options?: object) => CdpSocket };

interface CdpSocket {
  on(event: 'message', listener: (data: Buffer) => void): void;
  once(event: 'open' | 'error', listener: (error?: Error) => void): void;
  send(data: string): void;
  close(): void;
}

/** The DevTools port to pass to Chromium with `--remote-debugging-port`. */
export const DEVTOOLS_PORT = 9400 + (process.pid % 500);

export function devtoolsArgs(): string[] {
  return [`--remote-debugging-port=${DEVTOOLS_PORT}`];
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

interface Attached {
  sessionId: string;
  targetInfo: TargetInfo & { title: string };
}

export class WorkerProfiler {
  readonly #socket: CdpSocket;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #attached: Attached[] = [];
  #next = 0;
  #session = '';

  private constructor(socket: CdpSocket) {
    this.#socket = socket;
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
      if (message.method === 'Target.attachedToTarget') this.#attached.push(message.params as Attached);
      const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id!);
      if (message.error) pending.reject(new Error(message.error.message));
      else pending.resolve(message.result);
    });
  }

  /** Attaches to the Worker named `name` in the document at `documentUrl` and starts the profiler. */
  static async start(documentUrl: string, name: string, samplingIntervalUs = 100): Promise<WorkerProfiler> {
    const version = (await (await fetch(`http://127.0.0.1:${DEVTOOLS_PORT}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const socket = new WebSocket(version.webSocketDebuggerUrl, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', (error) => reject(error));
    });
    const profiler = new WorkerProfiler(socket);
    const { targetInfos } = (await profiler.#send('Target.getTargets', {}, '')) as { targetInfos: TargetInfo[] };
    const host = targetInfos.find((t) => t.url === documentUrl);
    if (!host) throw new Error(`no DevTools target is ${documentUrl}`);
    const { sessionId } = (await profiler.#send('Target.attachToTarget', { targetId: host.targetId, flatten: true }, '')) as { sessionId: string };
    await profiler.#send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);
    for (let waited = 0; ; waited += 50) {
      const worker = profiler.#attached.find((a) => a.targetInfo.type === 'worker' && a.targetInfo.title === name);
      if (worker) {
        profiler.#session = worker.sessionId;
        break;
      }
      if (waited > 5000) throw new Error(`no worker named ${name} in ${documentUrl}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await profiler.#send('Profiler.enable');
    await profiler.#send('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await profiler.#send('Profiler.start');
    return profiler;
  }

  /** Stops the profiler, writes the profile to `path` and detaches. */
  async stop(path: string): Promise<void> {
    const { profile } = (await this.#send('Profiler.stop')) as { profile: unknown };
    writeFileSync(path, JSON.stringify(profile));
    await this.#send('Target.detachFromTarget', { sessionId: this.#session }, '').catch(() => undefined);
    this.#socket.close();
  }

  #send(method: string, params: object = {}, sessionId = this.#session): Promise<unknown> {
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }
}
