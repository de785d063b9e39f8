/**
 * A loopback TCP gate in front of a real redis-server, for one crawl worker: everything passes
 * through unchanged until the test asks it to hold Redis's answers from the worker's next command
 * carrying a marker (a script's SHA-1, as EVALSHA sends it). The command itself goes on to Redis
 * and runs; its answer, and every later one, wait in the gate. The test can then kill the worker
 * at the one moment a kill cannot be timed from outside: after Redis ran its command, before
 * the worker read the answer.
 */
import { createServer, connect, type Socket } from 'node:net';

export interface RedisGate {
  /** `redis://127.0.0.1:PORT/0`, the gate's address: give it to the worker instead of Redis's. */
  readonly url: string;
  /**
   * Resolves, with the command's arguments as far as its first packet holds them, once the worker
   * sends a command that carries `marker`; from then on Redis's answers are held until `release`.
   */
  holdAfter(marker: string): Promise<string[]>;
  /** Lets the held answers through, and those after them. */
  release(): void;
  close(): Promise<void>;
}

export async function startRedisGate(redisPort: number): Promise<RedisGate> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let holding = false;
  const held: { client: Socket; chunk: Buffer }[] = [];
  let waiting: { marker: string; resolve: (args: string[]) => void } | undefined;

  const server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      const at = waiting ? chunk.indexOf(waiting.marker) : -1;
      if (waiting && at >= 0) {
        holding = true; // before the command leaves: no answer to it can pass
        const { resolve } = waiting;
        waiting = undefined;
        resolve(bulkStrings(chunk.subarray(at)));
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (holding) held.push({ client, chunk });
      else client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    url: `redis://127.0.0.1:${port}/0`,
    holdAfter(marker) {
      return new Promise((resolve) => (waiting = { marker, resolve }));
    },
    release() {
      holding = false;
      for (const { client, chunk } of held.splice(0)) if (!client.destroyed) client.write(chunk);
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The RESP bulk strings (`$LEN\r\nVALUE\r\n`) that follow a marker inside a command, as far as `bytes` goes. */
function bulkStrings(bytes: Buffer): string[] {
  const values: string[] = [];
  let at = bytes.indexOf('\r\n');
  while (at >= 0 && bytes[at + 2] === 0x24 /* $ */) {
    const lengthEnd = bytes.indexOf('\r\n', at + 3);
    if (lengthEnd < 0) break;
    const length = Number(bytes.subarray(at + 3, lengthEnd).toString());
    const value = bytes.subarray(lengthEnd + 2, lengthEnd + 2 + length);
    if (value.length < length) break;
    values.push(value.toString());
    at = lengthEnd + 2 + length;
  }
  return values;
}
