/**
 * `startService()`: the loopback service of docs/service-api.md on node:http. One request passes:
 *
 *   1. the guard (guard.ts): Host, then Origin, then, for /api/, the Bearer token
 *   2. the dashboard's files, or an /api/ route (api-routes.ts)
 *   3. an HttpError becomes its status and `{ error }`; anything else is logged and answered 500,
 *      and the service goes on: a bad request never brings it down
 *
 * It listens on 127.0.0.1 only. The crawls run in this process (crawl-manager.ts); the ones that
 * were running when the service last stopped are resumed at start.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { oneLine } from '../platform/one-line.ts';
import { parseRedisFrontierUrl } from '../frontier/redis/redis-url.ts';
import { handleApi, type ApiContext } from './api-routes.ts';
import { resolveHome, resolvePort, ServiceConfig } from './config.ts';
import { CrawlManager } from './crawl-manager.ts';
import { isDashboardPath, serveDashboard } from './dashboard-routes.ts';
import { checkHost, checkOrigin, checkToken, type GuardState } from './guard.ts';
import { HttpError, sendError } from './http-io.ts';
import { ModelRegistry } from './model-registry.ts';
import { EventStreams } from './sse.ts';
import { packageFile } from '../platform/package-root.ts';

export interface ServiceOptions {
  /** Loopback port; 0 picks a free one. Default `LINKSCENT_PORT`, else 7431. */
  port?: number;
  /** Home directory. Default `LINKSCENT_HOME`, else `$XDG_CONFIG_HOME/linkscent`, else `~/.config/linkscent`. */
  home?: string;
  /** Make a new pairing token and forget the paired origin. Default false. */
  resetPairing?: boolean;
  /** One-line reports (a crawl resumed or failed, a request that broke). Default: stderr. */
  log?: (line: string) => void;
  /** Event streams open at once (`GET /api/crawls/:id/events`); one more is 503. Default 256. */
  maxEventStreams?: number;
  /**
   * Run every crawl on a frontier shared through Redis (`redis://host:port/db`), each crawl named
   * by its id, so other `linkscent crawl --frontier …?crawl=<id>` processes can join it. Default
   * `LINKSCENT_FRONTIER`, else none (each crawl's own store). A bad URL fails the start, in one line.
   */
  frontier?: string;
}

export interface RunningService {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** The pairing token clients send as `Authorization: Bearer <token>`. */
  token: string;
  home: string;
  /** Stops listening and winds the crawls down; running crawls resume at the next start. */
  close(): Promise<void>;
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const port = resolvePort(options.port);
  const maxStreams = options.maxEventStreams;
  if (maxStreams !== undefined && !(Number.isInteger(maxStreams) && maxStreams >= 1)) throw new Error(`maxEventStreams must be a whole number ≥ 1, got ${maxStreams}`);
  const home = options.home ?? resolveHome();
  const config = ServiceConfig.open(home, { resetPairing: options.resetPairing ?? false, log });
  const models = new ModelRegistry(config.modelsDir);
  const frontier = options.frontier ?? (process.env.LINKSCENT_FRONTIER || undefined);
  if (frontier !== undefined) parseRedisFrontierUrl(frontier); // a bad one is one line, before anything runs
  const crawls = new CrawlManager({ crawlsDir: config.crawlsDir, models, log, ...(frontier !== undefined ? { frontier } : {}) });

  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on 127.0.0.1 is in use (another linkscent serve?); choose another with --port`, { cause: error }) : error);
      };
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve();
      });
    });
  } catch (error) {
    config.close();
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  const guard: GuardState = {
    port: actualPort,
    token: config.token,
    get pairedOrigin() {
      return config.pairedOrigin;
    },
    pin(origin) {
      config.pin(origin);
      log(`serve: paired with ${origin}`);
    },
  };
  const streams = new EventStreams(crawls, options.maxEventStreams);
  const api: ApiContext = { version: packageVersion(), port: actualPort, crawls, models, streams };

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response, guard, api).catch((error: unknown) => reply(response, error, log));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  crawls.start();

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    token: config.token,
    home,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        streams.close();
        server.closeAllConnections(); // event streams would otherwise hold close() open
        await crawls.close();
        await closed;
        config.close(); // the last: the crawls' stores are closed, the home is free
      })();
      return closing;
    },
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, guard: GuardState, api: ApiContext): Promise<void> {
  const refusal = checkHost(request, guard.port) ?? checkOrigin(request, guard);
  if (refusal) throw new HttpError(refusal.status, refusal.error);
  const url = new URL(request.url ?? '/', `http://127.0.0.1:${guard.port}`);
  if (request.method === 'OPTIONS') {
    // A pre-flight carries no token. The paired extension needs no CORS (its host permission
    // covers us), so nothing here grants anything: allowed origins get an empty 204.
    response.writeHead(204, { 'cache-control': 'no-store' }).end();
    return;
  }
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
    const tokenRefusal = checkToken(request, guard);
    if (tokenRefusal) throw new HttpError(tokenRefusal.status, tokenRefusal.error);
    await handleApi(api, request, response, url);
    return;
  }
  if (isDashboardPath(url.pathname)) {
    serveDashboard(request, response, url, guard.token);
    return;
  }
  throw new HttpError(404, `nothing at ${url.pathname} (the API is under /api/, the dashboard at /dashboard?token=…)`);
}

function reply(response: ServerResponse, error: unknown, log: (line: string) => void): void {
  const known = error instanceof HttpError;
  if (!known) log(`serve: request failed: ${oneLine(error)}`);
  if (response.headersSent) {
    response.destroy(); // mid-body (a stream): the client sees a cut connection, not a lie
    return;
  }
  if (known) sendError(response, error.status, error.message, error.headers);
  else sendError(response, 500, `internal error: ${oneLine(error)}`);
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
