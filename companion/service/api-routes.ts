/**
 * The `/api/` routes of docs/service-api.md. Each is a plain function of the request; whatever it
 * throws as an HttpError becomes that status and `{ error }`, anything else a 500 (server.ts).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CrawlManager } from './crawl-manager.ts';
import { checkCrawlRequest } from './crawl-request.ts';
import { COMMON_HEADERS, HttpError, readBody, readJson, sendBody, sendJson } from './http-io.ts';
import type { ModelRegistry } from './model-registry.ts';
import { pageTextOf, whyOf } from './crawl-inspect.ts';
import { MAX_MODEL_FILE_BYTES } from '../../shared/model/model-file.ts';
import { readPageLines } from './page-lines.ts';
import type { EventStreams } from './sse.ts';

const MAX_JSON_BYTES = 1 << 20;
const MAX_PAGE_LIMIT = 1000;

export interface ApiContext {
  version: string;
  port: number;
  crawls: CrawlManager;
  models: ModelRegistry;
  streams: EventStreams;
}

type Handler = (ctx: ApiContext, request: IncomingMessage, response: ServerResponse, params: string[], url: URL) => Promise<void> | void;

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handler: Handler;
}

const ID = '([A-Za-z0-9_-]{1,64})';

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/status$/, handler: (ctx, _q, res) => sendJson(res, 200, { version: ctx.version, port: ctx.port, crawls: ctx.crawls.list() }) },
  {
    method: 'POST',
    pattern: /^\/api\/models$/,
    async handler(ctx, req, res) {
      const text = await readBody(req, MAX_MODEL_FILE_BYTES, 'the model file');
      if (text.trim() === '') throw new HttpError(400, 'the request body is empty; expected a model file (a Dexie export)');
      const summary = await ctx.models.add(text);
      sendJson(res, 201, { modelId: summary.modelId, topics: summary.topics.map(({ id, name, examples }) => ({ id, name, examples })) });
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/api/models/${ID}$`),
    handler: (ctx, _q, res, [id]) => sendBody(res, 200, ctx.models.bytes(id!), { 'content-type': 'application/json; charset=utf-8' }),
  },
  {
    method: 'POST',
    pattern: /^\/api\/crawls$/,
    async handler(ctx, req, res) {
      const plan = checkCrawlRequest(await readJson(req, MAX_JSON_BYTES, 'a CrawlRequest'));
      sendJson(res, 201, await ctx.crawls.create(plan));
    },
  },
  { method: 'GET', pattern: /^\/api\/crawls$/, handler: (ctx, _q, res) => sendJson(res, 200, ctx.crawls.list()) },
  { method: 'GET', pattern: new RegExp(`^/api/crawls/${ID}$`), handler: (ctx, _q, res, [id]) => sendJson(res, 200, ctx.crawls.info(id!)) },
  { method: 'GET', pattern: new RegExp(`^/api/crawls/${ID}/events$`), handler: (ctx, req, res, [id]) => ctx.streams.stream(id!, req, res) },
  { method: 'POST', pattern: new RegExp(`^/api/crawls/${ID}/pause$`), handler: (ctx, _q, res, [id]) => sendJson(res, 200, ctx.crawls.pause(id!)) },
  { method: 'POST', pattern: new RegExp(`^/api/crawls/${ID}/resume$`), handler: async (ctx, _q, res, [id]) => sendJson(res, 200, await ctx.crawls.resume(id!)) },
  { method: 'POST', pattern: new RegExp(`^/api/crawls/${ID}/stop$`), handler: (ctx, _q, res, [id]) => sendJson(res, 200, ctx.crawls.stop(id!)) },
  {
    method: 'GET',
    pattern: new RegExp(`^/api/crawls/${ID}/pages$`),
    handler(ctx, _q, res, [id], url) {
      const offset = queryInt(url, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = queryInt(url, 'limit', 100, 1, MAX_PAGE_LIMIT);
      sendJson(res, 200, readPageLines(ctx.crawls.pagesFile(id!), offset, limit));
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/api/crawls/${ID}/pages\\.jsonl$`),
    handler(ctx, _q, res, [id]) {
      const path = ctx.crawls.pagesFile(id!);
      const headers = {
        ...COMMON_HEADERS,
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': `attachment; filename="linkscent-${id}-pages.jsonl"`,
      };
      if (!existsSync(path)) {
        res.writeHead(200, { ...headers, 'content-length': '0' }).end();
        return;
      }
      // The size now: a running crawl appends while we stream, and a line cut short is worse
      // than a line left for the next download.
      const size = statSync(path).size;
      res.writeHead(200, { ...headers, 'content-length': String(size) });
      if (size === 0) {
        res.end();
        return;
      }
      createReadStream(path, { start: 0, end: size - 1 })
        .on('error', () => res.destroy())
        .pipe(res);
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/api/crawls/${ID}/text$`),
    handler: (ctx, _q, res, [id], url) => sendJson(res, 200, pageTextOf(ctx.crawls.dir(id!), queryUrl(url))),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/api/crawls/${ID}/why$`),
    handler: async (ctx, _q, res, [id], url) => sendJson(res, 200, await whyOf(ctx.crawls.dir(id!), queryUrl(url), () => ctx.crawls.tokenizer())),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/api/crawls/${ID}/labels$`),
    async handler(ctx, _q, res, [id]) {
      const text = await ctx.crawls.labelsFile(id!);
      sendBody(res, 200, text, {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="linkscent-${id}-labels.json"`,
      });
    },
  },
];

/** Runs the matching route; 404 for an unknown path, 405 for a known path and another method. */
export async function handleApi(ctx: ApiContext, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const matching = ROUTES.map((route) => ({ route, match: route.pattern.exec(url.pathname) })).filter((m) => m.match !== null);
  if (matching.length === 0) throw new HttpError(404, `no API route ${url.pathname}`);
  const found = matching.find((m) => m.route.method === request.method);
  if (!found) {
    const allowed = [...new Set(matching.map((m) => m.route.method))].sort().join(', ');
    throw new HttpError(405, `${url.pathname} takes ${allowed}, not ${request.method}`, { allow: allowed });
  }
  await found.route.handler(ctx, request, response, found.match!.slice(1), url);
}

/** The `url` query parameter: a page of the crawl, as its pages.jsonl line names it. */
function queryUrl(url: URL): string {
  const value = url.searchParams.get('url');
  if (value === null || value.trim() === '') throw new HttpError(400, 'url is required (?url=<a page of the crawl>)');
  if (value.length > 8192) throw new HttpError(400, `url is ${value.length} characters long; at most 8192`);
  return value;
}

function queryInt(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new HttpError(400, `${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}
