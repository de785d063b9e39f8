/**
 * Who may talk to the service (docs/service-api.md "who may talk to it"). Every request passes
 * here before any route runs:
 *
 *   1. Host must be 127.0.0.1:P or localhost:P. A web page on a rebound DNS name reaches our
 *      socket with its own Host, so this stops DNS rebinding even before the token is checked.
 *   2. Origin: none (curl, the command line), our own (the dashboard), or the paired extension.
 *      An unpaired chrome-extension:// or moz-extension:// origin is pinned by its first request
 *      with a correct token; every other origin is refused, token or not.
 *   3. `/api/`: `Authorization: Bearer <token>`, compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Refusal {
  status: 401 | 403;
  error: string;
}

export interface GuardState {
  port: number;
  token: string;
  pairedOrigin: string | null;
  /** Pins an extension origin (persisted by the caller). */
  pin(origin: string): void;
}

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension):\/\/[A-Za-z0-9._-]+$/;

/** The Host check: a refusal, or undefined when the request names us. */
export function checkHost(request: IncomingMessage, port: number): Refusal | undefined {
  const host = (request.headers.host ?? '').toLowerCase();
  if (host === `127.0.0.1:${port}` || host === `localhost:${port}`) return undefined;
  return { status: 403, error: `Host "${request.headers.host ?? ''}" is not this service (expected 127.0.0.1:${port} or localhost:${port})` };
}

/** What an Origin header is to us. */
export type OriginKind = 'none' | 'own' | 'paired' | 'unpaired-extension' | 'foreign';

export function classifyOrigin(origin: string | undefined, state: Pick<GuardState, 'port' | 'pairedOrigin'>): OriginKind {
  if (origin === undefined) return 'none';
  if (origin === `http://127.0.0.1:${state.port}` || origin === `http://localhost:${state.port}`) return 'own';
  if (state.pairedOrigin !== null && origin === state.pairedOrigin) return 'paired';
  if (state.pairedOrigin === null && EXTENSION_ORIGIN.test(origin)) return 'unpaired-extension';
  return 'foreign';
}

/** The Origin check for any request: a refusal for a foreign origin. */
export function checkOrigin(request: IncomingMessage, state: GuardState): Refusal | undefined {
  const origin = headerValue(request, 'origin');
  const kind = classifyOrigin(origin, state);
  if (kind !== 'foreign') return undefined;
  const why = state.pairedOrigin !== null && EXTENSION_ORIGIN.test(origin ?? '')
    ? `the service is paired with another extension (run linkscent serve --reset-pairing to pair again)`
    : 'only the paired extension and the dashboard may call the service';
  return { status: 403, error: `Origin ${origin} is refused: ${why}` };
}

/** The Bearer token of an `/api/` request; pins an unpaired extension origin once it is authorised. */
export function checkToken(request: IncomingMessage, state: GuardState): Refusal | undefined {
  const header = headerValue(request, 'authorization');
  if (header === undefined) return { status: 401, error: 'missing Authorization: Bearer <pairing token>' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match || !tokenEquals(match[1]!, state.token)) return { status: 401, error: 'wrong pairing token' };
  const origin = headerValue(request, 'origin');
  if (classifyOrigin(origin, state) === 'unpaired-extension') state.pin(origin!);
  return undefined;
}

/**
 * Constant-time comparison. Both sides are hashed first so that the comparison has the same
 * length whatever was sent: timingSafeEqual needs equal lengths, and an early length check
 * would itself leak the token's length.
 */
export function tokenEquals(given: string, token: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
