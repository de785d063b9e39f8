/**
 * One connection to the shared frontier's Redis (node-redis, the `redis` package), and the Lua
 * scripts run over it by their SHA-1 (loaded once; a Redis restarted without them gets them
 * again on NOSCRIPT).
 *
 * Failure is one line: an unreachable Redis at the start (`connect`) or a connection lost for
 * good during the crawl (`reconnect` gives up after a few tries, and every command then rejects)
 * names the server and the reason, and the crawl stops; the leases of the URLs it held run out
 * and the other workers fetch them.
 */
import { createHash } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import type { RedisFrontierUrl } from './redis-url.ts';

/** Ms to wait for the first connection, and the reconnection attempts after a drop. */
const CONNECT_TIMEOUT_MS = 3000;
const RECONNECT_TRIES = 5;

export class RedisUnreachableError extends Error {
  override readonly name = 'RedisUnreachableError';
}

export type RedisReply = string | number | null | RedisReply[];

export class RedisConnection {
  readonly #shas = new Map<string, string>();
  #lastError: Error | undefined;

  private constructor(
    readonly client: RedisClientType,
    readonly url: RedisFrontierUrl,
  ) {
    client.on('error', (error: Error) => {
      this.#lastError = error;
    });
  }

  /** Connects, or throws `RedisUnreachableError` in one line naming the server. */
  static async open(url: RedisFrontierUrl): Promise<RedisConnection> {
    let attempts = 0;
    const client = createClient({
      url: url.connectUrl,
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        // No retry before the first connection (an unreachable Redis is an error now, not a hang);
        // a few after a drop, then every command rejects.
        reconnectStrategy: (retries: number) => (attempts === 0 || retries >= RECONNECT_TRIES ? false : 200 * (retries + 1)),
      },
      disableOfflineQueue: true,
    }) as RedisClientType;
    const connection = new RedisConnection(client, url);
    try {
      await client.connect();
      attempts++;
      await client.ping();
    } catch (error) {
      if (client.isOpen) client.destroy();
      const reason = connection.#lastError?.message ?? (error as Error).message;
      throw new RedisUnreachableError(`cannot reach Redis at ${url.shown}: ${reason || 'connection refused'}`, { cause: error });
    }
    return connection;
  }

  /** Runs a script (`lua-scripts.ts`) with its arguments (ARGV; no KEYS, see there). */
  async run(script: string, args: readonly (string | number)[]): Promise<RedisReply> {
    const argv = args.map(String);
    let sha = this.#shas.get(script);
    if (sha === undefined) {
      sha = createHash('sha1').update(script).digest('hex');
      this.#shas.set(script, sha);
    }
    try {
      return (await this.client.evalSha(sha, { arguments: argv })) as RedisReply;
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw this.#named(error);
      try {
        return (await this.client.eval(script, { arguments: argv })) as RedisReply;
      } catch (again) {
        throw this.#named(again);
      }
    }
  }

  /** A failed command, said with the server it was sent to. */
  #named(error: unknown): Error {
    const message = (error as Error).message;
    return new RedisUnreachableError(`Redis at ${this.url.shown}: ${message}`, { cause: error });
  }

  async close(): Promise<void> {
    if (this.client.isOpen) await this.client.close();
  }
}
