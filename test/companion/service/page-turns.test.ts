/**
 * PageTurns: crawl work taken in turns lets a request through between two units of it. Counted,
 * not timed: how many units of work (a few ms of busy CPU each, as a page's parse and commit)
 * ran before a loopback server's handler saw a request sent as the work began.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PageTurns } from '../../../companion/service/page-turns.ts';

const WORKERS = 40;
const UNITS = 5;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Units of work done before the handler ran, with `yieldTo` awaited before each unit. */
async function unitsBeforeRequest(yieldTo: () => Promise<void>): Promise<number> {
  let done = 0;
  let seenAt = -1;
  server = createServer((_req, res) => {
    seenAt = done;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const reply = new Promise<void>((resolve, reject) => request({ host: '127.0.0.1', port, agent: false }, (res) => res.resume().on('end', resolve)).on('error', reject).end());
  const worker = async () => {
    for (let i = 0; i < UNITS; i++) {
      await yieldTo();
      busy(3);
      done++;
    }
  };
  await Promise.all([...Array.from({ length: WORKERS }, worker), reply]);
  return seenAt;
}

describe('PageTurns', () => {
  it('answers a request after a few units of work, where promise continuations alone ran all of it first', async () => {
    const chained = await unitsBeforeRequest(() => Promise.resolve());
    expect(chained).toBe(WORKERS * UNITS); // the problem: the handler waited for every unit
    const turns = new PageTurns();
    const taken = await unitsBeforeRequest(turns.take);
    // Connect, accept, read: a few iterations of the loop, one unit each.
    expect(taken).toBeLessThanOrEqual(10);
    expect(turns.waiting).toBe(0);
  });

  it('grants turns in the order asked, one per event-loop iteration', async () => {
    const turns = new PageTurns();
    const order: string[] = [];
    const immediates: number[] = [];
    let iteration = 0;
    const tick = () => {
      iteration++;
      if (iteration < 10) setImmediate(tick);
    };
    setImmediate(tick);
    await Promise.all(
      ['a', 'b', 'c'].map(async (name) => {
        await turns.take();
        order.push(name);
        immediates.push(iteration);
      }),
    );
    expect(order).toEqual(['a', 'b', 'c']);
    expect(new Set(immediates).size).toBe(3);
  });
});
