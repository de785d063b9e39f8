/**
 * A synthetic loopback site that is mostly frontier: every page links `FANOUT` pages no other
 * page links, so a crawl of ~1,000 pages queues ~1,000,000 distinct URLs (the frontier bench's
 * web for issue 14's "1,000,000-URL frontier").
 *
 * Shape: pages are numbered; page n links pages n·FANOUT + 1 … n·FANOUT + FANOUT (a FANOUT-ary
 * tree, so no URL is linked twice), home `/` being page 0. One page in ten (n mod 10 = 3) is on
 * the topic and lives under `/t/<n>`, the rest under `/o/<n>`; anchors say which in a few words,
 * so `collect --positive <TOPIC_PATTERN>` labels them and a trained model tells them apart. A page
 * asked under the other prefix, or past the tree, is 404; so is `/robots.txt`. Each page
 * carries a paragraph of Chinese text, and its links are short list items, so most of a page's
 * ~50 kB is links: the cost being measured is the frontier's, not parsing prose.
 *
 * Every answered request is logged with the time its response finished (`performance.now()`),
 * so a bench counts pages and rates on the server's side, not from the crawler's own report.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen-loopback.ts';

/** Links per page, each to a page linked nowhere else. */
export const FANOUT = 1000;

/** Whether page `n` is on the topic (one in ten). */
export const onTopic = (n: number) => n % 10 === 3;

/** Page n's path: `/` for the home page, `/t/<n>` on the topic, `/o/<n>` off it. */
export const pathOf = (n: number) => (n === 0 ? '/' : `${onTopic(n) ? '/t' : '/o'}/${n}`);

/** The on-topic pages' URL pattern (`collect --positive`, `train --positive`). */
export const TOPIC_PATTERN = '*/t/*';

/** Past this, n·FANOUT + FANOUT would lose integer precision: such a page does not exist. */
const LAST_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / FANOUT) - 1;

export interface WideSiteOptions {
  /** Loopback address to listen on. Default 127.0.0.1. */
  address?: string;
}

export interface ServedRequest {
  path: string;
  status: number;
  /** When the response finished, `performance.now()`. */
  finishedAt: number;
}

export interface WideSite {
  origin: string;
  served: ServedRequest[];
  close(): Promise<void>;
}

const TEXT = '焦点爬虫的待抓取队列随每一页增长一千个网址，领取下一个网址的代价不应随队列变长而线性增长。';

function anchor(n: number): string {
  return onTopic(n) ? `焦点爬虫 专题 第 ${n} 篇` : `其他 杂项 第 ${n} 条`;
}

/** Page n's HTML, or undefined when `path` names no page. */
export function pageFor(path: string): string | undefined {
  let n: number;
  if (path === '/') n = 0;
  else {
    const match = /^\/([to])\/([1-9]\d{0,15})$/.exec(path);
    if (!match) return undefined;
    n = Number(match[2]);
    if (n > LAST_PAGE || (match[1] === 't') !== onTopic(n)) return undefined;
  }
  const items: string[] = [];
  for (let k = 1; k <= FANOUT; k++) {
    const child = n * FANOUT + k;
    items.push(`<li><a href="${pathOf(child)}">${anchor(child)}</a></li>`);
  }
  const title = n === 0 ? '首页' : anchor(n);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${TEXT}</p><ul>${items.join('')}</ul></body></html>`;
}

export async function startWideSite(options: WideSiteOptions = {}): Promise<WideSite> {
  const served: ServedRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body = pageFor(path);
    const status = body === undefined ? 404 : 200;
    const bytes = Buffer.from(body ?? '<!doctype html><title>404</title>');
    response.on('finish', () => served.push({ path, status, finishedAt: performance.now() }));
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': bytes.length }).end(bytes);
  });
  const listening = await listenOnLoopback(server, options.address);
  return { origin: listening.origin, served, close: listening.close };
}
