/**
 * `GET /api/crawls/:id/events`: a crawl's progress as server-sent events. The first `progress`
 * goes at once; then one on every change, at most four a second (the latest wins: a client wants
 * where the crawl is, not every page it passed); `end` once the crawl is done, stopped or failed,
 * and the stream closes. A comment line every 15 s keeps idle proxies and clients from timing out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CrawlManager } from './crawl-manager.ts';
import { FINAL_STATES, type CrawlInfo } from '../../shared/service-api/types.ts';
import { COMMON_HEADERS } from './http-io.ts';

const MIN_INTERVAL_MS = 250;
const KEEPALIVE_MS = 15_000;

export function streamCrawlEvents(manager: CrawlManager, id: string, request: IncomingMessage, response: ServerResponse): void {
  const first = manager.info(id); // 404 before any header is sent
  response.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  let lastSent = 0;
  let pending: CrawlInfo | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const send = (info: CrawlInfo) => {
    lastSent = Date.now();
    response.write(`event: progress\ndata: ${JSON.stringify(info)}\n\n`);
    if (FINAL_STATES.has(info.state)) {
      response.write(`event: end\ndata: ${JSON.stringify({ id: info.id, state: info.state })}\n\n`);
      finish();
      response.end();
    }
  };
  const flush = () => {
    timer = undefined;
    if (pending && !closed) {
      const info = pending;
      pending = undefined;
      send(info);
    }
  };
  const onChange = (info: CrawlInfo) => {
    if (closed) return;
    pending = info;
    const wait = lastSent + MIN_INTERVAL_MS - Date.now();
    if (wait <= 0) flush();
    else timer ??= setTimeout(flush, wait);
  };
  const keepalive = setInterval(() => response.write(': keep-alive\n\n'), KEEPALIVE_MS);
  const unsubscribe = manager.subscribe(id, onChange);
  function finish() {
    closed = true;
    clearInterval(keepalive);
    if (timer) clearTimeout(timer);
    unsubscribe();
  }
  request.on('close', finish);
  response.on('close', finish);
  send(first);
}
