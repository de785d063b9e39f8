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

/** The request body as text, refused with 413 past `maxBytes` (the upload is not read further). */
export async function readBody(request: IncomingMessage, maxBytes: number, what: string): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(what, maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(what, maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
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
