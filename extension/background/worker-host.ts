/**
 * Where the scoring Worker lives, behind one small interface.
 *
 * A Chromium MV3 service worker cannot construct a Worker, so there the Worker runs inside an
 * offscreen document (reason WORKERS, `offscreen-host.ts`); Firefox's MV3 background is an event
 * page, which can construct it directly (`direct-host.ts`). Either way the background ends up
 * with a comlink proxy of `WorkerApi` over a MessagePort that goes straight to the Worker.
 *
 * The Worker answers `scoreLinks` with its verdicts packed (`WorkerWireApi`, packed-verdicts.ts);
 * the remote handed out here unpacks them, so callers see `WorkerApi` and plain `LinkVerdict`s.
 *
 * The connection is cached in a module variable only: if the service worker or the event page is
 * unloaded it is simply made again, and the Worker reloads its model from IndexedDB.
 */
import * as Comlink from 'comlink';
import { unpackVerdicts } from '../messages/packed-verdicts.ts';
import type { WorkerApi, WorkerWireApi } from '../messages/worker-api.ts';
import { WORKER_CONNECT } from '../messages/worker-api.ts';

export type WorkerRemote = Comlink.Remote<WorkerApi>;

/** How one host type makes a port that reaches a (possibly new) Worker. */
export interface PortSource {
  readonly kind: 'offscreen' | 'direct';
  /** A port whose other end has been handed to the Worker with a `WorkerConnect` message. */
  connect(): Promise<MessagePort>;
  /** Throws the Worker (and its document) away, so the next `connect` starts afresh. */
  dispose(): Promise<void>;
}

/** jieba's dictionary takes about half a second to build; a cold start on a slow CI box more. */
export const CONNECT_TIMEOUT_MS = 60_000;
/** No single call should take this long; one that does means the Worker is gone. */
export const CALL_TIMEOUT_MS = 120_000;

export class WorkerUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkerUnavailableError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkerUnavailableError(`the scoring worker did not answer ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface WorkerHostOptions {
  /** Default `CONNECT_TIMEOUT_MS`. */
  connectTimeoutMs?: number;
  /** Default `CALL_TIMEOUT_MS`. */
  callTimeoutMs?: number;
}

export class WorkerHost {
  readonly #source: PortSource;
  readonly #connectTimeoutMs: number;
  readonly #callTimeoutMs: number;
  #remote: Promise<WorkerRemote> | null = null;

  constructor(source: PortSource, options: WorkerHostOptions = {}) {
    this.#source = source;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  }

  get kind(): PortSource['kind'] {
    return this.#source.kind;
  }

  /** The connected Worker, after its `ping` answered (jieba and the database ready). */
  remote(): Promise<WorkerRemote> {
    this.#remote ??= this.#open().catch((error: unknown) => {
      this.#remote = null;
      throw error;
    });
    return this.#remote;
  }

  /**
   * Runs one call against the Worker. A call that times out drops the connection and the Worker,
   * so the next call starts a new one instead of waiting on a dead port.
   */
  async call<T>(what: string, fn: (remote: WorkerRemote) => Promise<T>): Promise<T> {
    const remote = await this.remote();
    try {
      return await withTimeout(fn(remote), this.#callTimeoutMs, what);
    } catch (error) {
      if (error instanceof WorkerUnavailableError) await this.reset();
      throw error;
    }
  }

  async reset(): Promise<void> {
    const previous = this.#remote;
    this.#remote = null;
    if (previous) previous.then((remote) => remote[Comlink.releaseProxy]()).catch(() => undefined);
    await this.#source.dispose();
  }

  async #open(): Promise<WorkerRemote> {
    const port = await this.#source.connect();
    const remote = unpackingRemote(Comlink.wrap<WorkerWireApi>(port));
    try {
      await withTimeout(remote.ping(), this.#connectTimeoutMs, 'its first ping');
    } catch (error) {
      remote[Comlink.releaseProxy]();
      await this.#source.dispose().catch(() => undefined);
      throw error;
    }
    return remote;
  }
}

/** `wire` with `scoreLinks` unpacking the Worker's packed verdicts; every other member is `wire`'s own. */
export function unpackingRemote(wire: Comlink.Remote<WorkerWireApi>): WorkerRemote {
  const scoreLinks: WorkerApi['scoreLinks'] = async (topic, links) => unpackVerdicts(await wire.scoreLinks(topic, links));
  return new Proxy(wire, {
    get: (target, key, receiver) => (key === 'scoreLinks' ? scoreLinks : Reflect.get(target, key, receiver)),
  }) as unknown as WorkerRemote;
}

/** Hands `port2` of a new channel to `target` with the connect message; returns `port1`. */
export function handOverPort(target: { postMessage(message: unknown, transfer: Transferable[]): void }): MessagePort {
  const channel = new MessageChannel();
  target.postMessage({ type: WORKER_CONNECT }, [channel.port2]);
  return channel.port1;
}
