/**
 * A synthetic loopback site of a few thousand pages, one of which stalls: the records bench's
 * web for "a crawl with a stalled page among them exits within 2 s of its last page".
 *
 * Shape: the home page `/` links the stalled page first (so a breadth-first crawl claims it at
 * once and has it in flight all along), then `SECTIONS` section pages `/s/<i>`, each linking
 * `PER_SECTION` leaves `/s/<i>/<j>` and back home. Every page carries a few hundred characters of
 * Chinese text, so parsing and tokenising cost what a small real page costs. `/robots.txt` is 404.
 *
 * The stalled page (`/stall`) gets its headers never, or after `stallMs` when that is set (then
 * the crawler's own response deadline, 30 s by default, decides first). Its requests are kept
 * apart, with whether the client went away before an answer (`abandoned`).
 *
 * Every answered request is logged with the time its response finished (`performance.now()`, the
 * clock `cli-child.ts` stamps a child's exit with), so a bench can time the gap between the last
 * page the server sent and the crawler's exit from outside the crawler.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen-loopback.ts';

export const STALL_PATH = '/stall';
export const SECTIONS = 50;
export const PER_SECTION = 45;

export interface StallSiteOptions {
  /** Loopback address to listen on. Default 127.0.0.1. */
  address?: string;
  /** Answer the stalled page after this many ms; default: never. */
  stallMs?: number;
}

export interface ServedPage {
  path: string;
  status: number;
  /** When the response finished, `performance.now()`. */
  finishedAt: number;
}

export interface StallSite {
  origin: string;
  /** Every URL a crawl can reach from `/`: home, stalled page, sections, leaves. */
  pageCount: number;
  served: ServedPage[];
  /** Requests for the stalled page: when they came, and whether the client went away unanswered. */
  stalls: { at: number; abandoned: boolean }[];
  close(): Promise<void>;
}

const TEXT = '焦点爬虫按链接的价值排列待抓取的网页，预算用完即停，未完成的请求留在队列里等待续抓。';

function html(title: string, links: string[]): string {
  const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${TEXT.repeat(6)}</p><ul>${anchors}</ul></body></html>`;
}

function pageFor(path: string): string | undefined {
  if (path === '/') return html('首页', [STALL_PATH, ...Array.from({ length: SECTIONS }, (_, i) => `/s/${i}`)]);
  const match = /^\/s\/(\d+)(?:\/(\d+))?$/.exec(path);
  if (!match) return undefined;
  const section = Number(match[1]);
  if (section >= SECTIONS) return undefined;
  if (match[2] === undefined) return html(`第 ${section} 节`, ['/', ...Array.from({ length: PER_SECTION }, (_, j) => `/s/${section}/${j}`)]);
  return Number(match[2]) < PER_SECTION ? html(`第 ${section} 节第 ${match[2]} 页`, ['/', `/s/${section}`]) : undefined;
}

export async function startStallSite(options: StallSiteOptions = {}): Promise<StallSite> {
  const served: ServedPage[] = [];
  const stalls: StallSite['stalls'] = [];
  const timers = new Set<NodeJS.Timeout>();

  const answer = (response: ServerResponse, path: string, status: number, body: string) => {
    const bytes = Buffer.from(body);
    response.on('finish', () => served.push({ path, status, finishedAt: performance.now() }));
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': bytes.length }).end(bytes);
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === STALL_PATH) {
      const stall = { at: performance.now(), abandoned: false };
      stalls.push(stall);
      response.on('close', () => {
        if (!response.writableFinished) stall.abandoned = true;
      });
      if (options.stallMs !== undefined) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) answer(response, path, 200, html('迟到的页面', ['/']));
        }, options.stallMs);
        timers.add(timer);
      }
      return;
    }
    const body = pageFor(path);
    answer(response, path, body === undefined ? 404 : 200, body ?? html('404', []));
  });

  const listening = await listenOnLoopback(server, options.address);
  return {
    origin: listening.origin,
    pageCount: 2 + SECTIONS * (1 + PER_SECTION),
    served,
    stalls,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return listening.close();
    },
  };
}
