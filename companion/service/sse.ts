/**
 * `GET /api/crawls/:id/events`: a crawl's progress as server-sent events. The first `progress`
 * goes at once; then one on every change, at most four a second (the latest wins: a client wants
 * where the crawl is, not every page it passed); `end` once the crawl is done, stopped or failed,
 * and the stream closes. A client that comes after the end gets the last progress and `end` at
 * once. A comment line every 15 s keeps idle proxies and clients from timing out.
 *
 * One channel per crawl, shared by all its clients: a change is serialised once and the same
 * bytes written to each (200 clients once cost 200 `JSON.stringify` per page). The final
 * progress and `end` are never held back by the throttle.
 *
 * Bounds: at most `maxStreams` streams open at once (a further one is 503 with Retry-After);
 * a client that does not read (its socket's buffer past `MAX_BUFFERED_BYTES`) is cut, rather
 * than the service holding every event for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CrawlManager } from './crawl-manager.ts';
import { FINAL_STATES, type CrawlInfo } from '../../shared/service-api/types.ts';
import { COMMON_HEADERS, HttpError } from './http-io.ts';

const MIN_INTERVAL_MS = 250;
const KEEPALIVE_MS = 15_000;
/** A client with this much unsent is cut: at four events a second, minutes of events it never read. */
export const MAX_BUFFERED_BYTES = 1 << 20;
/** Default bound on streams open at once (`ServiceOptions.maxEventStreams`). */
export const DEFAULT_MAX_EVENT_STREAMS = 256;
/** Seconds a refused client is told to wait. */
const RETRY_AFTER_S = 5;

/** A crawl's progress frames, written to every client of the crawl. */
class Channel {
  readonly clients = new Set<ServerResponse>();
  #lastSent = 0;
  #pending: CrawlInfo | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly unsubscribe: () => void;

  constructor(
    manager: CrawlManager,
    id: string,
    private readonly onEmpty: () => void,
  ) {
    this.unsubscribe = manager.subscribe(id, (info) => this.#changed(info));
  }

  add(response: ServerResponse, info: CrawlInfo): void {
    this.clients.add(response);
    write(response, progressFrame(info));
    if (FINAL_STATES.has(info.state)) this.#end(response, info);
  }

  remove(response: ServerResponse): void {
    if (!this.clients.delete(response) || this.clients.size > 0) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.unsubscribe();
    this.onEmpty();
  }

  #changed(info: CrawlInfo): void {
    this.#pending = info;
    const wait = this.#lastSent + MIN_INTERVAL_MS - Date.now();
    if (FINAL_STATES.has(info.state) || wait <= 0) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), wait);
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const info = this.#pending;
    if (!info) return;
    this.#pending = undefined;
    this.#lastSent = Date.now();
    const frame = progressFrame(info);
    const final = FINAL_STATES.has(info.state);
    for (const response of [...this.clients]) {
      write(response, frame);
      if (final) this.#end(response, info);
    }
  }

  #end(response: ServerResponse, info: CrawlInfo): void {
    write(response, `event: end\ndata: ${JSON.stringify({ id: info.id, state: info.state })}\n\n`);
    response.end();
    this.remove(response);
  }
}

/** The service's event streams: one channel per watched crawl, and the bound on streams. */
export class EventStreams {
  readonly #channels = new Map<string, Channel>();
  readonly #open = new Set<ServerResponse>();
  readonly #keepalive: NodeJS.Timeout;

  constructor(
    private readonly manager: CrawlManager,
    readonly maxStreams: number = DEFAULT_MAX_EVENT_STREAMS,
  ) {
    // One timer for every stream, not one per stream.
    this.#keepalive = setInterval(() => {
      for (const response of this.#open) write(response, ': keep-alive\n\n');
    }, KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  /** Streams open now. */
  get size(): number {
    return this.#open.size;
  }

  /** Answers the request with the crawl's stream; 404 for an unknown crawl, 503 past `maxStreams`. */
  stream(id: string, request: IncomingMessage, response: ServerResponse): void {
    const first = this.manager.info(id); // 404 before any header is sent
    if (this.#open.size >= this.maxStreams) {
      throw new HttpError(503, `${this.#open.size} event streams are open, the most this service serves at once; try again later`, { 'retry-after': String(RETRY_AFTER_S) });
    }
    response.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    let channel = this.#channels.get(id);
    if (!channel) {
      channel = new Channel(this.manager, id, () => this.#channels.delete(id));
      this.#channels.set(id, channel);
    }
    this.#open.add(response);
    const joined = channel;
    const leave = () => {
      this.#open.delete(response);
      joined.remove(response);
    };
    request.on('close', leave);
    response.on('close', leave);
    joined.add(response, first);
  }

  /** Stops the keep-alive timer (the server closes the connections). */
  close(): void {
    clearInterval(this.#keepalive);
  }
}

function progressFrame(info: CrawlInfo): string {
  return `event: progress\ndata: ${JSON.stringify(info)}\n\n`;
}

/** Writes, or cuts a client that stopped reading. */
function write(response: ServerResponse, frame: string): void {
  if (response.destroyed || response.writableEnded) return;
  if (response.writableLength > MAX_BUFFERED_BYTES) {
    response.destroy();
    return;
  }
  response.write(frame);
}
