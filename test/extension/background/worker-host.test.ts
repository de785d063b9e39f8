/**
 * The worker host over real MessagePorts and comlink (Node has both): a fake "worker" exposes a
 * part of WorkerApi on the port it is handed, exactly as extension/worker/index.ts does.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { handOverPort, WorkerHost, WorkerUnavailableError, type PortSource } from '../../../extension/background/worker-host.ts';
import { packVerdicts } from '../../../extension/messages/packed-verdicts.ts';
import type { LinkVerdict } from '../../../extension/messages/page-links.ts';
import { isWorkerConnect } from '../../../extension/messages/worker-api.ts';
import { topic } from '../support/memory-db.ts';

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** What the fake Worker's `scoreLinks` answers, as the real one does: packed (`WorkerWireApi`). */
const VERDICTS: LinkVerdict[] = [
  { ref: 7, p: 0.1, level: 0, top: [] },
  { ref: 8, p: 0.9, level: 3, top: [{ feature: 'a:基金', weight: 1.25 }], template: true },
  { ref: 9, p: 0.3, level: 3, top: [{ feature: 'u:fund', weight: -0.5 }], mark: 1 },
];

/** A port source whose "worker" answers ping after `delayMs`, and counts its lifetimes. */
function fakeSource(options: { pingDelayMs?: number; hangOn?: string } = {}) {
  const stats = { workers: 0, connects: 0, disposed: 0 };
  let alive = false;
  const source: PortSource = {
    kind: 'direct',
    async connect() {
      stats.connects++;
      if (!alive) {
        alive = true;
        stats.workers++;
      }
      const worker = {
        postMessage(message: unknown, transfer: Transferable[]) {
          expect(isWorkerConnect(message)).toBe(true);
          const port = transfer[0] as MessagePort;
          open.push(port);
          Comlink.expose(
            {
              ping: () => new Promise((resolve) => setTimeout(() => resolve('pong'), options.pingDelayMs ?? 0)),
              scoreLinks: () => packVerdicts(VERDICTS),
              counts: () => (options.hangOn === 'counts' ? new Promise(() => {}) : { byLabel: { on: 2, off: 1 }, bySource: {}, pagesSeen: 1 }),
            },
            port,
          );
        },
      };
      const port = handOverPort(worker);
      open.push(port);
      return port;
    },
    async dispose() {
      stats.disposed++;
      alive = false;
    },
  };
  return { source, stats };
}

describe('WorkerHost', () => {
  it('connects once, pings, and reuses the connection for every call', async () => {
    const { source, stats } = fakeSource();
    const host = new WorkerHost(source);
    const [a, b] = await Promise.all([host.call('counts', (r) => r.counts(null)), host.call('counts', (r) => r.counts(null))]);
    expect(a.byLabel).toEqual({ on: 2, off: 1 });
    expect(b.pagesSeen).toBe(1);
    expect(stats.connects).toBe(1);
  });

  it('gives up on a worker that never answers its ping, and tries afresh next time', async () => {
    const { source, stats } = fakeSource({ pingDelayMs: 10_000 });
    const host = new WorkerHost(source, { connectTimeoutMs: 50 });
    await expect(host.remote()).rejects.toBeInstanceOf(WorkerUnavailableError);
    expect(stats.disposed).toBe(1);
    await expect(host.remote()).rejects.toThrow(/did not answer its first ping/);
    expect(stats.connects).toBe(2);
  });

  it('drops a worker whose call hangs, so the next call gets a new one', async () => {
    const { source, stats } = fakeSource({ hangOn: 'counts' });
    const host = new WorkerHost(source, { callTimeoutMs: 50 });
    await expect(host.call('counts', (r) => r.counts(null))).rejects.toThrow(/did not answer counts/);
    expect(stats.disposed).toBe(1);
    await expect(host.call('ping', (r) => r.ping())).resolves.toBe('pong');
    expect(stats.workers).toBe(2);
  });

  it("unpacks the Worker's packed verdicts: callers get the LinkVerdicts it built", async () => {
    const { source } = fakeSource();
    const host = new WorkerHost(source);
    const verdicts = await host.call('scoreLinks', (r) => r.scoreLinks(topic(), []));
    expect(verdicts).toStrictEqual(VERDICTS);
    expect(JSON.stringify(verdicts)).toBe(JSON.stringify(VERDICTS));
    // Every other member is the comlink remote's own.
    await expect(host.call('counts', (r) => r.counts(null))).resolves.toMatchObject({ pagesSeen: 1 });
  });
});
