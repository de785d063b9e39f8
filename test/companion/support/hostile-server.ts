/**
 * A real HTTP server on 127.0.0.1 (a free port) that behaves like the worst of the web, for the
 * fetch layer's tests and the crawl loop's integration tests. Loopback only, nothing external.
 *
 *   const server = await startHostileServer();            // or startHostileServer({ robots: 'server-error' })
 *   fetchPage(`${server.origin}/site/a`, …);
 *   server.hits('/robots.txt');                           // requests seen for a path (query ignored)
 *   await server.close();
 *
 * Routes (all GET; every request is logged in `server.requests`):
 *
 *   Site
 *     /                    home: links to /site/a, /site/b, /private/secret, /trap/1, /cal?d=1, /loop/a, /status/404
 *     /site/a, /site/b, /site/c   small linked HTML pages (utf-8, charset in header)
 *     /private/secret      an HTML page that robots.txt disallows
 *     /robots.txt          by `robots` mode: 'normal' (default) = `BadBot` disallowed everywhere;
 *                          `*`: Disallow /private, Crawl-delay 1. 'not-found' = 404; 'server-error' = 500;
 *                          'redirect' = 301 to /robots-moved.txt (normal rules); 'slow' = normal after
 *                          150 ms; 'huge' = 600 KiB of comments, then `Disallow: /after-cap`;
 *                          'wildcards' = `Disallow: /early`, 12,000 costly wildcard rules
 *                          (≈ 400 KiB, within the byte cap), then `Disallow: /late`.
 *   Traps
 *     /trap/N              page linking /trap/N+1, forever
 *     /cal?d=N…            calendar page linking /cal?<its own query>&d=N+1: the query grows each step
 *   Redirects
 *     /loop/a ⇄ /loop/b    302 to each other
 *     /chain/N             301 to /chain/N-1 … /chain/0 is an HTML page (N redirects)
 *     /redirect/relative   302 with the relative Location `../site/a?from=relative`
 *     /redirect/to-private 302 to /private/secret
 *     /redirect/no-location 302 without Location
 *     /redirect/ftp        302 to ftp://127.0.0.1/file
 *   Limits
 *     /stall               200 text/html headers, a few bytes, then nothing (socket held open)
 *     /stall-headers       reads the request and never answers
 *     /trickle             200 text/html, then one byte every 50 ms, forever
 *     /huge                20 MB of HTML streamed in chunks, no Content-Length
 *     /huge-declared       the same with Content-Length: 20000000
 *   Encodings (Content-Encoding)
 *     /gzip/page, /deflate/page (zlib), /deflate-raw/page (raw deflate), /br/page   a small HTML page
 *     /gzip-bomb, /br-bomb 64 MiB of HTML that compresses to ~64 KiB / ~100 bytes
 *     /gzip-flood          a gzip stream of 20 MB of empty deflate blocks: endless input, no output
 *   Content types
 *     /binary/as-html      PNG bytes labelled text/html
 *     /binary/nul-html     text/html whose first KiB has NUL bytes (no magic number)
 *     /binary/octet        PNG bytes as application/octet-stream
 *     /binary/untyped      PNG bytes, no Content-Type
 *     /untyped/html        HTML, no Content-Type
 *     /untyped/text        plain text, no Content-Type
 *     /pdf                 application/pdf
 *     /malformed           broken HTML (unclosed tags, stray end tags, bad entities, unquoted attributes)
 *   Charsets (Chinese text in each; `CHINESE_TEXT` exported for assertions)
 *     /gbk/header          GBK bytes, `charset=GBK` in the header only
 *     /gbk/meta            GBK bytes, header without charset, `<meta http-equiv content="…charset=gb2312">`
 *     /gbk/meta-charset    GBK bytes, `<meta charset="x-gbk">` only
 *     /gbk/undeclared      GBK bytes, no declaration anywhere (the GB18030 fallback)
 *     /big5                Big5 bytes (`BIG5_TEXT`), `charset=big5` in the header
 *     /utf8-bom            UTF-8 with a BOM, header wrongly says charset=gbk
 *   Errors
 *     /status/N            status N (404, 500, 503, 429, …) with a small HTML body
 *     /reset               destroys the socket on receipt (connection reset)
 *     /reset-mid-body      sends headers and some HTML, then destroys the socket
 *   Transient failures (for retries)
 *     /flaky/F/N/…         the first N requests for this exact path and query fail, later ones get
 *                          a small HTML page. F is `reset` (socket destroyed) or a status (503,
 *                          429, 502, …) sent with `Retry-After: S` when the query has `retry-after=S`.
 *
 * Also returned: `silentHost`, a raw TCP server on another port that accepts and never says a
 * word (https:// to it stalls the TLS handshake: a connect timeout), and `refusedOrigin`, a
 * port that was just closed (connection refused).
 *
 * For what fixed routes cannot say, `startScriptedSite` serves pages the test writes, on any
 * loopback address (politeness is per host name: a second host is 127.0.0.2), slowly if asked,
 * with a robots.txt that fails as many times as the test says, redirects, requests held back
 * until the test releases them (or for ever: a stalled page), and counts requests in flight and
 * the ones the client abandoned.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { brotliCompressSync, constants as zc, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';

export type RobotsMode = 'normal' | 'not-found' | 'server-error' | 'redirect' | 'slow' | 'huge' | 'wildcards';

export interface HostileServerOptions {
  robots?: RobotsMode;
}

export interface RequestRecord {
  path: string;
  headers: IncomingMessage['headers'];
  /** performance.now() when the request arrived. */
  at: number;
  remotePort: number;
  /** Set when the client's socket for this request has closed. */
  socketClosed: boolean;
}

export interface HostileServer {
  origin: string;
  close: () => Promise<void>;
  requests: RequestRecord[];
  hits: (pathname: string) => number;
  /** `127.0.0.1:port` of a TCP server that accepts and never answers; prefix http:// or https://. */
  silentHost: string;
  refusedOrigin: string;
}

export const CHINESE_TEXT = '简体中文网页：焦点爬虫测试，链接气味';
export const BIG5_TEXT = '繁體中文網頁：聚焦爬蟲測試，鏈接氣味';
export const HUGE_BYTES = 20_000_000;
const BOMB_BYTES = 64 * 1024 * 1024;

const ROBOTS = 'User-agent: BadBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nCrawl-delay: 1\n';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head>${head}<title>${title}</title></head><body>${body}</body></html>`;
}
const link = (href: string, text: string): string => `<a href="${href}">${text}</a>`;

let bombs: { gzip: Buffer; br: Buffer } | undefined;
/** Built once per test file (~0.2 s), only if a bomb route is hit. */
function getBombs(): { gzip: Buffer; br: Buffer } {
  if (!bombs) {
    const plain = Buffer.alloc(BOMB_BYTES, 0x20);
    plain.write('<!doctype html><html><body>', 0, 'latin1');
    bombs = { gzip: gzipSync(plain, { level: 9 }), br: brotliCompressSync(plain, { params: { [zc.BROTLI_PARAM_QUALITY]: 5 } }) };
  }
  return bombs;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

function html(res: ServerResponse, body: string | Buffer, status = 200, type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/** Streams `total` bytes of HTML, honouring backpressure, stopping when the client goes away. */
function streamHuge(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  chunk.write('<p>');
  let sent = 0;
  const write = (): void => {
    while (sent < total && !res.destroyed) {
      const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', write);
    }
    if (!res.destroyed) res.end();
  };
  write();
}

function routes(mode: RobotsMode, timers: Set<NodeJS.Timeout>): Record<string, Handler> {
  const robots: Handler = (_req, res) => {
    switch (mode) {
      case 'not-found': return html(res, 'no robots here', 404, 'text/plain');
      case 'server-error': return html(res, 'oops', 500, 'text/plain');
      case 'redirect': res.writeHead(301, { location: '/robots-moved.txt' }); return void res.end();
      case 'slow': {
        const timer = setTimeout(() => html(res, ROBOTS, 200, 'text/plain'), 150);
        timers.add(timer);
        return;
      }
      case 'wildcards': return html(res, `User-agent: *\nDisallow: /early\n${'Disallow: /*a*a*a*a*a*a*a*a*a*a*b\n'.repeat(12_000)}Disallow: /late\n`, 200, 'text/plain');
      case 'huge': return html(res, `${'# filler line of a very long robots file\n'.repeat(15_000)}User-agent: *\nDisallow: /after-cap\n`, 200, 'text/plain');
      default: return html(res, ROBOTS, 200, 'text/plain');
    }
  };
  const gbk = (body: string, head = ''): Buffer => iconv.encode(page('GBK 页面', body, head), 'gbk');
  const encoded = (encoding: string, bytes: Buffer): Handler => (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': encoding });
    res.end(bytes);
  };
  const small = Buffer.from(page('Compressed', `<p>${CHINESE_TEXT}</p>${link('/site/a', 'A')}`));
  return {
    '/': (_req, res) => html(res, page('Home', ['/site/a', '/site/b', '/private/secret', '/trap/1', '/cal?d=1', '/loop/a', '/status/404'].map((h) => link(h, h)).join(' '))),
    '/site/a': (_req, res) => html(res, page('A', `<p>Page A about crawling.</p>${link('/site/b', 'B')} ${link('/site/c', 'C')}`)),
    '/site/b': (_req, res) => html(res, page('B', `<p>Page B.</p>${link('/site/a', 'A')} ${link('/site/c', 'C')}`)),
    '/site/c': (_req, res) => html(res, page('C', `<p>Page C.</p>${link('/', 'home')}`)),
    '/private/secret': (_req, res) => html(res, page('Secret', '<p>robots.txt says you should not be here.</p>')),
    '/robots.txt': robots,
    '/robots-moved.txt': (_req, res) => html(res, ROBOTS, 200, 'text/plain'),
    '/cal': (_req, res, url) => {
      const d = Number(url.searchParams.getAll('d').at(-1) ?? '1');
      html(res, page(`Calendar ${d}`, link(`/cal${url.search}&d=${d + 1}`, 'next day')));
    },
    '/loop/a': (_req, res) => { res.writeHead(302, { location: '/loop/b' }); res.end(); },
    '/loop/b': (_req, res) => { res.writeHead(302, { location: '/loop/a' }); res.end(); },
    '/redirect/relative': (_req, res) => { res.writeHead(302, { location: '../site/a?from=relative' }); res.end(); },
    '/redirect/to-private': (_req, res) => { res.writeHead(302, { location: '/private/secret' }); res.end(); },
    '/redirect/no-location': (_req, res) => { res.writeHead(302); res.end(); },
    '/redirect/ftp': (_req, res) => { res.writeHead(302, { location: 'ftp://127.0.0.1/file' }); res.end(); },
    '/stall': (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.write('<html><body>'); },
    '/stall-headers': () => {},
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body>');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 50);
      timers.add(timer);
    },
    '/huge': (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); streamHuge(res, HUGE_BYTES); },
    '/huge-declared': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(HUGE_BYTES) });
      streamHuge(res, HUGE_BYTES);
    },
    '/gzip/page': encoded('gzip', gzipSync(small)),
    '/deflate/page': encoded('deflate', deflateSync(small)),
    '/deflate-raw/page': encoded('deflate', deflateRawSync(small)),
    '/br/page': encoded('br', brotliCompressSync(small)),
    '/gzip-bomb': (req, res, url) => encoded('gzip', getBombs().gzip)(req, res, url),
    '/br-bomb': (req, res, url) => encoded('br', getBombs().br)(req, res, url),
    '/gzip-flood': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      // gzip header, then empty non-final stored blocks (00 00 00 ff ff) over and over.
      const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
      const empty = Buffer.alloc(64 * 1024 - (64 * 1024) % 5);
      for (let at = 0; at < empty.length; at += 5) empty.set([0, 0, 0, 0xff, 0xff], at);
      res.write(header);
      let sent = 0;
      const write = (): void => {
        while (sent < HUGE_BYTES && !res.destroyed) {
          sent += empty.length;
          if (!res.write(empty)) return void res.once('drain', write);
        }
        if (!res.destroyed) res.end();
      };
      write();
    },
    '/binary/as-html': (_req, res) => html(res, PNG, 200, 'text/html'),
    '/binary/nul-html': (_req, res) => html(res, Buffer.concat([Buffer.from('<html>'), Buffer.alloc(64, 0), Buffer.alloc(4096, 0x41)]), 200, 'text/html'),
    '/binary/octet': (_req, res) => html(res, PNG, 200, 'application/octet-stream'),
    '/binary/untyped': (_req, res) => { res.writeHead(200); res.end(PNG); },
    '/untyped/html': (_req, res) => { res.writeHead(200); res.end(page('Untyped', `<p>No Content-Type here.</p>${link('/site/a', 'A')}`)); },
    '/untyped/text': (_req, res) => { res.writeHead(200); res.end('just some plain text, not a page\n'); },
    '/pdf': (_req, res) => html(res, Buffer.from('%PDF-1.4\n%…'), 200, 'application/pdf'),
    '/malformed': (_req, res) => html(res, '<html><head><title>Broken<body><div><p>unclosed <b>bold <a href=/site/a>A</div></span> &nbsp &amp;&bogus; <p class=x y="z>tail'),
    '/gbk/header': (_req, res) => html(res, gbk(`<p>${CHINESE_TEXT}</p>`), 200, 'text/html; charset=GBK'),
    '/gbk/meta': (_req, res) => html(res, gbk(`<p>${CHINESE_TEXT}</p>`, '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">'), 200, 'text/html'),
    '/gbk/meta-charset': (_req, res) => html(res, gbk(`<p>${CHINESE_TEXT}</p>`, '<!-- <meta charset="big5"> --><meta charset="x-gbk">'), 200, 'text/html'),
    '/gbk/undeclared': (_req, res) => html(res, gbk(`<p>${CHINESE_TEXT}</p>`), 200, 'text/html'),
    '/big5': (_req, res) => html(res, iconv.encode(page('Big5', `<p>${BIG5_TEXT}</p>`), 'big5'), 200, 'text/html; charset=big5'),
    '/utf8-bom': (_req, res) => html(res, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page('BOM', `<p>${CHINESE_TEXT}</p>`))]), 200, 'text/html; charset=gbk'),
    '/reset': (req) => req.socket.destroy(),
    '/reset-mid-body': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><p>half a page');
      setImmediate(() => req.socket.destroy());
    },
  };
}

function dynamic(url: URL, req: IncomingMessage, res: ServerResponse, failures: Map<string, number>): boolean {
  const { pathname } = url;
  const flaky = pathname.match(/^\/flaky\/(reset|\d{3})\/(\d+)(\/.*)?$/);
  if (flaky) {
    const key = pathname + url.search;
    const seen = failures.get(key) ?? 0;
    failures.set(key, seen + 1);
    if (seen >= Number(flaky[2])) html(res, page('Served at last', `<p>attempt ${seen + 1}</p>`));
    else if (flaky[1] === 'reset') req.socket.destroy();
    else {
      const retryAfter = url.searchParams.get('retry-after');
      res.writeHead(Number(flaky[1]), { 'content-type': 'text/html', ...(retryAfter !== null ? { 'retry-after': retryAfter } : {}) });
      res.end(page(`Status ${flaky[1]}`, '<p>try again later</p>'));
    }
    return true;
  }
  const trap = pathname.match(/^\/trap\/(\d+)$/);
  if (trap) {
    const n = Number(trap[1]);
    html(res, page(`Trap ${n}`, link(`/trap/${n + 1}`, 'deeper')));
    return true;
  }
  const chain = pathname.match(/^\/chain\/(\d+)$/);
  if (chain) {
    const n = Number(chain[1]);
    if (n === 0) html(res, page('End of chain', '<p>arrived</p>'));
    else { res.writeHead(301, { location: `/chain/${n - 1}` }); res.end(); }
    return true;
  }
  const status = pathname.match(/^\/status\/(\d{3})$/);
  if (status) {
    html(res, page(`Status ${status[1]}`, '<p>error page</p>'), Number(status[1]));
    return true;
  }
  return false;
}

async function listen(server: Server | ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function startHostileServer(options: HostileServerOptions = {}): Promise<HostileServer> {
  const timers = new Set<NodeJS.Timeout>();
  const table = routes(options.robots ?? 'normal', timers);
  const requests: RequestRecord[] = [];
  const sockets = new Set<Socket>();
  // The requests each open socket has carried, marked when it closes. One 'close' listener per
  // socket, added on connection: a listener per request would pile up on a keep-alive socket
  // (MaxListenersExceededWarning after ten requests).
  const carried = new Map<Socket, RequestRecord[]>();
  const failures = new Map<string, number>(); // /flaky/… requests seen, per path and query

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: RequestRecord = { path: url.pathname + url.search, headers: req.headers, at: performance.now(), remotePort: req.socket.remotePort ?? 0, socketClosed: req.socket.destroyed };
    requests.push(record);
    carried.get(req.socket)?.push(record);
    const handler = table[url.pathname];
    if (handler) handler(req, res, url);
    else if (!dynamic(url, req, res, failures)) html(res, page('Not found', '<p>nothing here</p>'), 404);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    carried.set(socket, []);
    socket.once('close', () => {
      sockets.delete(socket);
      for (const record of carried.get(socket) ?? []) record.socketClosed = true;
      carried.delete(socket);
    });
  });
  const port = await listen(server);

  const silent = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
  });
  const silentPort = await listen(silent);

  const refused = createTcpServer();
  const refusedPort = await listen(refused);
  await new Promise<void>((resolve) => refused.close(() => resolve()));

  return {
    origin: `http://127.0.0.1:${port}`,
    silentHost: `127.0.0.1:${silentPort}`,
    refusedOrigin: `http://127.0.0.1:${refusedPort}`,
    requests,
    hits: (pathname) => requests.filter((r) => r.path.split('?', 1)[0] === pathname).length,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => silent.close(() => resolve())),
      ]);
    },
  };
}

/** A scripted answer given in full: the body's bytes as sent, and headers (in order) to send with it. */
export interface ScriptedAnswer {
  body: string | Buffer;
  headers?: [string, string][];
  /** Send the body in pieces of this many bytes (chunked transfer coding). Default: in one piece. */
  pieces?: number;
}

export interface ScriptedSiteOptions {
  /** Loopback address to listen on. Default 127.0.0.1. */
  address?: string;
  /**
   * The HTML of a path (answered 200 text/html, utf-8), or an answer in full (200 with its own
   * headers); undefined: 404.
   */
  page: (path: string) => string | ScriptedAnswer | undefined;
  /** The status of robots.txt's n-th answer (n from 1), with an empty body. Default: 404 (no rules). */
  robots?: (n: number) => number;
  /** Delay before each page's answer (robots.txt answers at once), ms. Default 0. */
  delayMs?: number;
  /**
   * Holds a request back (robots.txt included) until the promise settles: a page the test
   * releases when it wants, or, with a promise that never settles, a stalled one (the socket stays
   * open until the client gives up). Undefined: answered as usual.
   */
  hold?: (path: string) => Promise<void> | undefined;
  /** A redirect: the Location a path answers 302 with. Undefined: not redirected. */
  redirect?: (path: string) => string | undefined;
}

export interface ScriptedRequest {
  path: string;
  /** performance.now() when it arrived. */
  at: number;
  /** Set when the client closed the connection before the answer was sent (it gave up). */
  abandoned: boolean;
  /** The request's headers as received (Node's name, value, name, value, … list). */
  rawHeaders: string[];
}

export interface ScriptedSite {
  origin: string;
  /** Every request, robots.txt included, in arrival order. */
  requests: ScriptedRequest[];
  /** Requests seen for a path (query ignored). */
  hits: (pathname: string) => number;
  /** The most page requests (robots.txt aside) being answered at one time. */
  mostInFlight: () => number;
  close: () => Promise<void>;
}

/** Writes a scripted answer: its headers in order, its body in `pieces`-byte writes (chunked). */
function answerInFull(res: ServerResponse, answer: ScriptedAnswer): void {
  res.writeHead(200, answer.headers?.flat() ?? []);
  const bytes = Buffer.from(answer.body);
  const step = answer.pieces ?? bytes.length;
  for (let at = 0; at < bytes.length; at += Math.max(step, 1)) res.write(bytes.subarray(at, at + step));
  res.end();
}

export async function startScriptedSite(options: ScriptedSiteOptions): Promise<ScriptedSite> {
  const { address = '127.0.0.1', page, robots = () => 404, delayMs = 0, hold, redirect } = options;
  const requests: ScriptedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let robotsAsked = 0;
  let inFlight = 0;
  let most = 0;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const record: ScriptedRequest = { path, at: performance.now(), abandoned: false, rawHeaders: req.rawHeaders };
    requests.push(record);
    res.once('close', () => (record.abandoned = !res.writableFinished));
    const respond = (): void => {
      if (res.destroyed) return;
      if (path === '/robots.txt') return void res.writeHead(robots(++robotsAsked)).end();
      const location = redirect?.(path);
      if (location !== undefined) return void res.writeHead(302, { location }).end();
      inFlight += 1;
      most = Math.max(most, inFlight);
      const answer = (): void => {
        inFlight -= 1;
        const body = page(path);
        if (body === undefined) html(res, '<p>not found</p>', 404);
        else if (typeof body === 'string') html(res, body);
        else answerInFull(res, body);
      };
      if (delayMs <= 0) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, delayMs);
      timers.add(timer);
    };
    const held = hold?.(path);
    if (held) void held.then(respond);
    else respond();
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    origin: `http://${address}:${(server.address() as AddressInfo).port}`,
    requests,
    hits: (pathname) => requests.filter((r) => r.path.split('?', 1)[0] === pathname).length,
    mostInFlight: () => most,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
