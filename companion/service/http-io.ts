/**
 * The HTTP plumbing every route shares: one error type carrying its status, JSON replies, and
 * bodies read with a size cap. Every refusal is `{ "error": "<one sentence>" }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request the service refuses, with the status to answer. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Headers on every answer: nothing is cached, sniffed or framed. */
export const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendBody(response, status, JSON.stringify(value), { 'content-type': 'application/json; charset=utf-8', ...headers });
}

export function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(response, status, { error: message }, headers);
}

export function sendBody(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { ...COMMON_HEADERS, 'content-length': String(Buffer.byteLength(body)), ...headers });
  response.end(body);
}

/**
 * Bytes of request bodies the service holds while reading them, all requests together. One body
 * is capped by its route (a model file at 64 MiB), but twelve uploads of 63 MiB at once held 1 GB;
 * past this budget a new upload is turned away (503, try again) instead of growing the process.
 * Two model files of the largest size fit at once.
 */
export const BODY_BYTES_IN_FLIGHT = 128 << 20;

let bodyBytesInFlight = 0;

/** The request-body bytes held now (reserved), all requests together. */
export function bodyBytesHeld(): number {
  return bodyBytesInFlight;
}

/**
 * The request body as text, refused with 413 past `maxBytes` (the upload is not read further)
 * and with 503 when the bodies being read would pass BODY_BYTES_IN_FLIGHT. A declared
 * Content-Length is reserved up front; a chunked body reserves its bytes as they come.
 */
export async function readBody(request: IncomingMessage, maxBytes: number, what: string): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes);
  let reserved = 0;
  const reserve = (bytes: number): void => {
    if (bodyBytesInFlight + bytes > BODY_BYTES_IN_FLIGHT) {
      throw new HttpError(503, `the service is reading ${Math.round(bodyBytesInFlight / (1 << 20))} MiB of other uploads; send ${what} again shortly`, { connection: 'close', 'retry-after': '5' });
    }
    bodyBytesInFlight += bytes;
    reserved += bytes;
  };
  try {
    if (Number.isFinite(declared) && declared > 0) reserve(declared);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(what, maxBytes);
      if (size > reserved) reserve(size - reserved);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    bodyBytesInFlight -= reserved;
  }
}

/** The body parsed as JSON; 400 naming the problem when it is not. */
export async function readJson(request: IncomingMessage, maxBytes: number, what: string): Promise<unknown> {
  const text = await readBody(request, maxBytes, what);
  if (text.trim() === '') throw new HttpError(400, `the request body is empty; expected ${what} as JSON`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `the request body is not JSON (${(error as Error).message})`);
  }
}

function tooLarge(what: string, maxBytes: number): HttpError {
  return new HttpError(413, `${what} is larger than ${Math.round(maxBytes / (1 << 20))} MiB`, { connection: 'close' });
}
