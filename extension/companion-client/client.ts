/**
 * The client of the companion's loopback service (`linkscent serve`, docs/service-api.md).
 *
 * It runs in the background only (service worker in Chromium, event page in Firefox): the token
 * stays in one context, a crawl start (export → upload → start) finishes even when the popup
 * closes half-way, and the popup and options page stay views over typed messages. Every page of
 * the extension has the same Origin, so the service's pinning of the first extension Origin is
 * the same whichever context calls.
 *
 * Every failure is a `CompanionError` whose `problem` names the reaction it needs (start the
 * companion, paste the token again, …) and whose message is one sentence saying so; the UI shows
 * its own translation of the problem and falls back to the message.
 */
import { DEFAULT_SERVICE_PORT, type CrawlInfo, type CrawlRequest, type ModelUpload, type PagesReply, type ServiceStatus } from '../../shared/service-api/types.ts';
import { isCrawlInfo, isModelUpload, isPagesReply, isServiceStatus } from './check-replies.ts';

/** What went wrong, named for what the user has to do about it. */
export type CompanionProblem =
  /** No token stored yet: pair in the options page. */
  | 'not-paired'
  /** Nothing answers on the port: start the companion. */
  | 'not-running'
  /** 401: the stored token is not the companion's (it was reset, or mistyped). */
  | 'token-refused'
  /** 403: the companion is paired with another extension (or browser profile). */
  | 'origin-refused'
  /** 404: the companion does not know that crawl (its home directory changed). */
  | 'not-found'
  /** 400 and the like: the companion refused the request and said why. */
  | 'request-refused'
  /** 5xx: the companion failed and said why. */
  | 'service-error'
  /** No answer in time. */
  | 'timeout'
  /** Something answers on the port, but not as the companion would. */
  | 'not-companion';

export class CompanionError extends Error {
  override readonly name = 'CompanionError';
  constructor(
    readonly problem: CompanionProblem,
    message: string,
    /** The service's own sentence (`{ error }`), when it gave one. */
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface CompanionClientOptions {
  /** Port of `linkscent serve` on 127.0.0.1. Default 7431 (`DEFAULT_SERVICE_PORT`). */
  port?: number;
  /** The pairing token `linkscent serve` printed; '' = not paired (calls fail without a request). */
  token: string;
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Per request. Default 10 000 ms; a model upload or a label download gets `TRANSFER_TIMEOUT_MS`. */
  timeoutMs?: number;
}

export const REQUEST_TIMEOUT_MS = 10_000;
/** A model file of a large topic is tens of megabytes. */
export const TRANSFER_TIMEOUT_MS = 120_000;
/** The longest service sentence quoted to the user. */
const MAX_DETAIL = 300;

export interface CompanionClient {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  status(): Promise<ServiceStatus>;
  /** Uploads a model file (a Dexie export's text). */
  uploadModel(fileText: string): Promise<ModelUpload>;
  startCrawl(request: CrawlRequest): Promise<CrawlInfo>;
  crawl(id: string): Promise<CrawlInfo>;
  crawls(): Promise<CrawlInfo[]>;
  control(id: string, action: 'pause' | 'resume' | 'stop'): Promise<CrawlInfo>;
  pages(id: string, offset?: number, limit?: number): Promise<PagesReply>;
  /** The crawl's learned labels as a model file's text. */
  labels(id: string): Promise<string>;
  /** The dashboard showing `crawl`, with the token it needs (`/dashboard?token=…#crawl=<id>`). */
  dashboardUrl(crawl: Pick<CrawlInfo, 'dashboardPath'>): string;
}

/** The host the client calls: the service listens on 127.0.0.1 only, and `localhost` may mean ::1. */
export function companionBaseUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

export function createCompanionClient(options: CompanionClientOptions): CompanionClient {
  const port = options.port ?? DEFAULT_SERVICE_PORT;
  const token = options.token.trim();
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const baseUrl = companionBaseUrl(port);
  const where = `127.0.0.1:${port}`;

  async function send(method: 'GET' | 'POST', path: string, body?: string, ms = timeoutMs): Promise<Response> {
    if (token === '') {
      throw new CompanionError(
        'not-paired',
        'LinkScent is not paired with the companion yet: paste the pairing token that `linkscent serve` printed into Options → Companion.',
      );
    }
    let response: Response;
    try {
      response = await fetchFn(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(ms),
        // Loopback only: no cookies, no cached answers, and never follow a redirect elsewhere.
        credentials: 'omit',
        cache: 'no-store',
        redirect: 'error',
      });
    } catch (error) {
      if ((error as { name?: string }).name === 'TimeoutError') {
        const limit = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
        throw new CompanionError('timeout', `The companion on ${where} did not answer within ${limit}.`, undefined, { cause: error });
      }
      throw new CompanionError(
        'not-running',
        `The LinkScent companion is not running on port ${port}. Start it with: npm start (or npx linkscent serve)`,
        undefined,
        { cause: error },
      );
    }
    if (response.ok) return response;
    throw await refusal(response);
  }

  async function refusal(response: Response): Promise<CompanionError> {
    const detail = await errorSentence(response);
    const said = detail === undefined ? '' : ` (${detail})`;
    switch (response.status) {
      case 401:
        return new CompanionError(
          'token-refused',
          'The companion refused the pairing token: paste the token that `linkscent serve` printed into Options → Companion.',
          detail,
        );
      case 403:
        return new CompanionError(
          'origin-refused',
          `The companion is paired with another browser extension${said}: run \`npx linkscent serve --reset-pairing\` and pair again.`,
          detail,
        );
      case 404:
        return new CompanionError('not-found', `The companion does not know that${said}.`, detail);
      default:
        if (response.status >= 500) return new CompanionError('service-error', `The companion failed (HTTP ${response.status})${said}.`, detail);
        return new CompanionError('request-refused', `The companion refused the request (HTTP ${response.status})${said}.`, detail);
    }
  }

  async function json<T>(response: Response, check: (value: unknown) => value is T, what: string): Promise<T> {
    let value: unknown;
    try {
      value = await response.json();
    } catch (error) {
      throw notCompanion(what, error);
    }
    if (!check(value)) throw notCompanion(what);
    return value;
  }

  function notCompanion(what: string, cause?: unknown): CompanionError {
    return new CompanionError(
      'not-companion',
      `Something answers on ${where}, but its ${what} is not the LinkScent companion's: check the port in Options → Companion.`,
      undefined,
      cause === undefined ? undefined : { cause },
    );
  }

  const crawlPath = (id: string) => `/api/crawls/${encodeURIComponent(id)}`;
  const isCrawlList = (value: unknown): value is CrawlInfo[] => Array.isArray(value) && value.every(isCrawlInfo);

  return {
    baseUrl,
    status: async () => json(await send('GET', '/api/status'), isServiceStatus, 'status'),
    uploadModel: async (fileText) => json(await send('POST', '/api/models', fileText, TRANSFER_TIMEOUT_MS), isModelUpload, 'model upload answer'),
    startCrawl: async (request) => json(await send('POST', '/api/crawls', JSON.stringify(request)), isCrawlInfo, 'crawl'),
    crawl: async (id) => json(await send('GET', crawlPath(id)), isCrawlInfo, 'crawl'),
    crawls: async () => json(await send('GET', '/api/crawls'), isCrawlList, 'crawl list'),
    control: async (id, action) => json(await send('POST', `${crawlPath(id)}/${action}`), isCrawlInfo, 'crawl'),
    pages: async (id, offset = 0, limit = 100) =>
      json(await send('GET', `${crawlPath(id)}/pages?offset=${offset}&limit=${limit}`), isPagesReply, 'page list'),
    labels: async (id) => (await send('GET', `${crawlPath(id)}/labels`, undefined, TRANSFER_TIMEOUT_MS)).text(),
    dashboardUrl(crawl) {
      const url = new URL(crawl.dashboardPath, baseUrl);
      // The token goes to this service only, whatever path an answer carried.
      if (url.origin !== baseUrl) throw notCompanion('dashboard path');
      url.searchParams.set('token', token);
      return url.href;
    },
  };
}

/** The `{ error }` sentence of a refusal, cut short; undefined when the body is not one. */
async function errorSentence(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error !== 'string' || body.error.trim() === '') return undefined;
    const sentence = body.error.trim().replace(/\s+/g, ' ');
    return sentence.length > MAX_DETAIL ? `${sentence.slice(0, MAX_DETAIL - 1)}…` : sentence.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}
