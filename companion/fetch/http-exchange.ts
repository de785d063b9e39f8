/**
 * One HTTP request/response exchange under a wall-clock deadline, shared by page fetches and
 * robots.txt fetches. undici's own headers/body timeouts are idle timers, which a server that
 * trickles a byte now and then defeats; the deadline here aborts the whole exchange, and the
 * abort destroys the body stream, which makes undici close the socket instead of leaving it
 * half-read in the pool.
 */
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { ResponseDeadlineError } from './fetch-errors.ts';
import { ACCEPT_ENCODING } from './response-body.ts';

/** Prefer HTML, accept anything (so a server does not answer 406), never ask for XML. */
export const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

/** Statuses whose Location we follow ourselves (undici 7's `request` follows none). */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ResponseHead {
  status: number;
  /** The reason phrase as received ('' when the server sent none). */
  statusText: string;
  /** Header names lower-cased, repeated headers as arrays: what the fetch layer reads. */
  headers: Record<string, string | string[] | undefined>;
  /** The headers as received: names in their case, in order, repeats apart (for WARC records). */
  rawHeaders: [string, string][];
  body: Readable;
}

/** The request line's target and the headers of a GET, in the order undici writes them. */
export interface SentRequest {
  target: string;
  headers: [string, string][];
}

/**
 * What undici 7's HTTP/1.1 client writes for our GET (client-h1.js `writeH1`): `host` (the URL's
 * host, port included unless default), `connection: keep-alive` (our agent never pipelines and
 * keeps sockets alive), then our headers in the order given. Built here once, so the request we
 * send and the request a WARC record keeps cannot drift apart.
 */
export function sentRequest(url: string, request_: { userAgent: string; accept: string }): SentRequest {
  const parsed = new URL(url);
  return {
    target: `${parsed.pathname}${parsed.search}`,
    headers: [
      ['host', parsed.host],
      ['connection', 'keep-alive'],
      ...ownHeaders(request_),
    ],
  };
}

function ownHeaders(request_: { userAgent: string; accept: string }): [string, string][] {
  return [
    ['user-agent', request_.userAgent],
    ['accept', request_.accept],
    ['accept-encoding', ACCEPT_ENCODING],
  ];
}

/** Raw header pairs as the fetch layer reads them: lower-cased names, repeats as arrays. */
function headerRecord(raw: readonly [string, string][]): ResponseHead['headers'] {
  const record: ResponseHead['headers'] = {};
  for (const [name, value] of raw) {
    const key = name.toLowerCase();
    const previous = record[key];
    record[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return record;
}

/** One header's value as a single string (repeated headers joined as HTTP allows). */
export function headerValue(headers: ResponseHead['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sends one GET and resolves with status, headers and the unread body. */
export async function sendGet(
  url: string,
  request_: { userAgent: string; accept: string; timeoutMs: number },
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<ResponseHead> {
  const response = await request(url, {
    method: 'GET',
    dispatcher,
    signal,
    headers: Object.fromEntries(ownHeaders(request_)),
    // The headers as received (case, order, repeats), for WARC records; the record the fetch
    // layer reads is derived from them below.
    responseHeaders: 'raw',
    // Backstops only; the deadline in withDeadline is what bounds a trickling server.
    headersTimeout: request_.timeoutMs,
    bodyTimeout: request_.timeoutMs,
  });
  const flat = response.headers as unknown as string[];
  const rawHeaders: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) rawHeaders.push([flat[i]!, flat[i + 1]!]);
  return { status: response.statusCode, statusText: response.statusText ?? '', headers: headerRecord(rawHeaders), rawHeaders, body: response.body };
}

/**
 * Closes a body unread (and the socket under it). undici reports the destroy as an 'error'
 * event, which is expected here and must not surface as an uncaught exception.
 */
export function dropBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * Throws away a body we do not want (a redirect's or an error page's). A small one is read so
 * the socket can be reused; anything bigger, or slower than the deadline, closes the socket.
 */
export async function discardBody(body: Readable): Promise<void> {
  const dumpable = body as Readable & { dump?: (opts: { limit: number }) => Promise<void> };
  try {
    if (dumpable.dump) await dumpable.dump({ limit: 64 * 1024 });
    else dropBody(body);
  } catch {
    dropBody(body);
  }
}

/**
 * Runs `work` with a signal that aborts after `timeoutMs` (reason: ResponseDeadlineError) or
 * when `callerSignal` aborts (its own reason). Listeners and the timer are removed afterwards,
 * so a long-lived caller signal collects nothing across thousands of fetches.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ResponseDeadlineError(timeoutMs)), timeoutMs);
  timer.unref();
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
