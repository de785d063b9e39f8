/**
 * The worker host over real MessagePorts and comlink (Node has both): a fake "worker" exposes a
 * part of WorkerApi on the port it is handed, exactly as extension/worker/index.ts does.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { handOverPort, WorkerHost, WorkerUnavailableError, type PortSource } from '../../../extension/background/worker-host.ts';
import { isWorkerConnect } from '../../../extension/messages/worker-api.ts';

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

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
});
