/**
 * A small local web for the benchmarks, built from the Debian documentation packages that
 * `bench/fetch-debian-docs.sh` unpacks into `bench/data/sites/<package>/`.
 *
 * Each package is its own **site** on its own loopback address, `http://127.0.0.N:PORT/`
 * (N = 2, 3, … in `SITES` order, one fixed port for all), so a crawler meets several hosts
 * with their own politeness slots, as on the web. A site's URL space is the package's file
 * tree as `dpkg -x` left it: `/usr/share/libreoffice/help/zh-CN/text/scalc/main0000.html` is
 * that file, so every relative link the documents hold resolves as it does on a Debian
 * machine browsing `file:///usr/share/…`. Links that leave the package (Python's
 * `_static/jquery.js` into `/usr/share/javascript/`, the Debian Edu images into
 * `debian-edu-doc-en`, root-absolute links such as `/bugs.html`) are 404s, as is any
 * symlink whose target lies outside the package tree; symlinks inside it are followed.
 *
 * **Joining the sites into one web.** Debian's documentation packages do not link to each
 * other (each was written to be read on its own, from `/usr/share/doc`), so served as they are
 * the sites would be islands a crawler could only enter from a seed on each. The web is not
 * like that: sites are reached through portals and link to their neighbours. So two kinds of
 * page are generated, and nothing inside the packages is changed:
 *
 *   - a **hub page** at each site's `/` (no package has a file there): the package's title,
 *     links to its main documents (their anchors are the documents' own `<title>`s), and a
 *     "相关站点" (related sites) list linking every other site's hub;
 *   - a **portal** at `http://127.0.0.1:PORT/`, a neutral start page listing every site's hub
 *     (anchor: the site's title; a line of description after it), the seed for crawls.
 *
 * Responses: `Content-Type` by file extension, with the charset of HTML taken from its
 * `<meta charset>` (UTF-8 when none is declared, which is what every package here declares);
 * `index.html` for a directory (a directory URL without its slash redirects to it); 404 for
 * anything missing, including `/robots.txt` (so everything may be crawled). Files are read
 * once and kept in memory, so the server is not what a throughput figure measures.
 *
 * Options for benches that need more of the real web's variety (all off by default, so the
 * pipeline and crawl benches see the web as before):
 *   - `charsets`: serve a site in another charset, e.g. `{ 'gimp-help-zh-cn': 'gbk' }`: its HTML
 *     (hub included) is transcoded from UTF-8 with iconv-lite, its `<meta>` charset and the
 *     `Content-Type` header say so, as on the many Chinese sites still served in GBK;
 *   - `calendar`: an endless events calendar on the portal's host, linked from the portal
 *     (`/calendar/2026-11.html`, every month linking its days and the months either side, every
 *     day the days either side): a crawler trap no URL-shape check catches;
 *   - `log`: every response in the order served (`served()`: URL, status, type, SHA-256 of the
 *     body), so a bench counts what the server really sent, not what the crawler wrote.
 *
 * `startLocalWeb()` listens on every address and resolves when all listen; `close()` ends
 * every connection and stops every server. Other benches use it the same way.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { corpusProblem, countPages } from './corpus.ts';

/** `bench/data/sites`, where fetch-debian-docs.sh unpacks the packages. */
export const DEFAULT_SITES_DIR = resolve(fileURLToPath(new URL('../data/sites', import.meta.url)));

/** The fixed port every address listens on (override with `port` or LINKSCENT_BENCH_PORT). */
export const DEFAULT_PORT = 8471;

export interface SiteSpec {
  /** The Debian package, a directory under the sites dir. */
  package: string;
  /** The hub's title, and the portal's anchor for the site. */
  title: string;
  /** One line about the site, written after its link on the portal and on its hub. */
  description: string;
  /** Paths (from the package root) of the documents the hub links to. Missing ones are left out. */
  entries: string[];
}

const LO = '/usr/share/libreoffice/help/zh-CN/text';

/** Every site, in address order: SITES[0] is 127.0.0.2. */
export const SITES: readonly SiteSpec[] = [
  {
    package: 'libreoffice-help-zh-cn',
    title: 'LibreOffice 帮助（简体中文）',
    description: 'LibreOffice 办公套件的离线帮助：文字处理、电子表格、演示文稿、绘图、数据库、公式与 Basic 宏。',
    entries: [
      `${LO}/shared/05/new_help.html`,
      `${LO}/swriter/main0000.html`,
      `${LO}/scalc/main0000.html`,
      `${LO}/simpress/main0000.html`,
      `${LO}/sdraw/main0000.html`,
      `${LO}/sdatabase/main.html`,
      `${LO}/schart/main0000.html`,
      `${LO}/smath/main0000.html`,
      `${LO}/sbasic/shared/main0601.html`,
      `${LO}/shared/main0108.html`,
    ],
  },
  {
    package: 'gimp-help-zh-cn',
    title: 'GIMP 用户手册（简体中文）',
    description: 'GNU 图像处理程序 GIMP 的用户手册：图像、图层、选区、画笔工具与滤镜。',
    entries: ['/usr/share/gimp/2.0/help/zh_CN/index.html'],
  },
  {
    package: 'lilypond-doc-html-zh',
    title: 'LilyPond 文档（中文）',
    description: 'LilyPond 乐谱排版软件的网站与学习手册。',
    entries: ['/usr/share/doc/lilypond/html/Documentation/web/index.zh.html', '/usr/share/doc/lilypond/html/Documentation/learning/index.zh.html'],
  },
  {
    package: 'debian-reference-zh-cn',
    title: 'Debian 参考手册（简体中文）',
    description: 'Debian 系统管理与使用的参考手册。',
    entries: ['/usr/share/debian-reference/index.zh-cn.html'],
  },
  {
    package: 'debian-reference-zh-tw',
    title: 'Debian 參考手冊（繁體中文）',
    description: 'Debian 系統管理與使用的參考手冊。',
    entries: ['/usr/share/debian-reference/index.zh-tw.html'],
  },
  {
    package: 'maint-guide-zh-cn',
    title: 'Debian 新维护者手册（简体中文）',
    description: '如何制作 Debian 软件包。',
    entries: ['/usr/share/doc/maint-guide-zh-cn/html/index.zh-cn.html'],
  },
  {
    package: 'maint-guide-zh-tw',
    title: 'Debian 新維護者手冊（繁體中文）',
    description: '如何製作 Debian 軟體包。',
    entries: ['/usr/share/doc/maint-guide-zh-tw/html/index.zh-tw.html'],
  },
  {
    package: 'debian-faq-zh-cn',
    title: 'Debian 常见问题（简体中文）',
    description: '关于 Debian GNU/Linux 的常见问题与解答。',
    entries: ['/usr/share/doc/debian/FAQ/zh-cn/index.zh-cn.html'],
  },
  {
    package: 'debian-edu-doc-zh-cn',
    title: 'Debian Edu 手册（简体中文）',
    description: 'Debian Edu / Skolelinux 学校网络发行版的手册。',
    entries: [
      '/usr/share/doc/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html',
      '/usr/share/doc/debian-edu-doc-zh-cn/debian-edu-bullseye-manual.html',
    ],
  },
  {
    package: 'linuxcnc-doc-zh-cn',
    title: 'LinuxCNC 文档（简体中文）',
    description: 'LinuxCNC 数控系统的 G 代码说明。',
    entries: ['/usr/share/doc/linuxcnc/gcode_zh_CN.html'],
  },
  {
    package: 'python3.11-doc',
    title: 'Python 3.11 Documentation',
    description: 'The Python language reference, library reference, tutorial and HOWTOs (English).',
    entries: ['/usr/share/doc/python3.11/html/index.html'],
  },
];

export interface LocalSite {
  package: string;
  title: string;
  /** `http://127.0.0.N:PORT` (no trailing slash). */
  origin: string;
  /** The hub page, `origin + '/'`. */
  hub: string;
  /** Absolute URLs of the entry documents the hub links to. */
  entries: string[];
}

/** One response, as the server sent it. */
export interface ServedResponse {
  /** The absolute URL requested. */
  url: string;
  status: number;
  /** The Content-Type sent. */
  type: string;
  /** SHA-256 of the body sent, hex (none for HEAD), so a reader of the crawl's records can be checked against the server. */
  sha256?: string;
  /** When the response was handed to the socket (`performance.now()`): rates counted on the server's side. */
  at: number;
}

export interface LocalWeb {
  /** The portal page, `http://127.0.0.1:PORT/`. */
  portal: string;
  sites: LocalSite[];
  /** Every origin served, the portal's first. */
  origins: string[];
  /** Requests answered since start (or the last `resetCounts`), and how many were 404s. */
  counts(): { requests: number; notFound: number };
  /** With `log`: every response since start (or the last `resetCounts`), in the order sent. */
  served(): readonly ServedResponse[];
  resetCounts(): void;
  close(): Promise<void>;
}

export interface LocalWebOptions {
  /** Where the packages are unpacked. Default `bench/data/sites`. */
  sitesDir?: string;
  /** The port on every address. Default LINKSCENT_BENCH_PORT or 8471. */
  port?: number;
  /** The packages to serve (default: every one in SITES that is unpacked). */
  packages?: readonly string[];
  /** Package → the charset its HTML is served in (transcoded from UTF-8). Default none. */
  charsets?: Readonly<Record<string, string>>;
  /** An endless calendar on the portal's host, linked from the portal. Default false. */
  calendar?: boolean;
  /** Keep every response for `served()`. Default false. */
  log?: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.epub': 'application/epub+zip',
  '.gz': 'application/gzip',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.ly': 'text/plain; charset=utf-8',
};

/** Files larger than this are streamed from disk each time instead of being kept in memory. */
const CACHE_LIMIT = 2 * 1024 * 1024;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The charset an HTML file declares in its first 2 KB, else utf-8. */
function htmlCharset(body: Buffer): string {
  const head = body.subarray(0, 2048).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(head);
  return match ? match[1]!.toLowerCase() : 'utf-8';
}

function contentType(path: string, body: Buffer): string {
  const ext = extname(path).toLowerCase();
  const type = CONTENT_TYPES[ext] ?? 'application/octet-stream';
  return type === 'text/html' ? `text/html; charset=${htmlCharset(body)}` : type;
}

/** A document's `<title>` text (entities left as they are apart from the common ones). */
function titleOf(file: string): string | undefined {
  try {
    const head = readFileSync(file).subarray(0, 8192).toString('utf8');
    const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head);
    if (!match) return undefined;
    return match[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&ndash;/g, '–')
      .replace(/&amp;/g, '&')
      .replace(/&[a-z]+;|&#\d+;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  } catch {
    return undefined;
  }
}

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}

interface SiteRuntime {
  spec: SiteSpec;
  root: string;
  address: string;
  site: LocalSite;
  /** Entry path → its title, for the hub. */
  entryTitles: [string, string][];
}

function portalHtml(sites: SiteRuntime[], calendar: boolean): string {
  const items = sites
    .map((s) => `<li><a href="${s.site.hub}">${escapeHtml(s.spec.title)}</a><p>${escapeHtml(s.spec.description)}</p></li>`)
    .join('\n');
  const events = calendar ? `\n<p><a href="${CALENDAR_START}">活动日历</a>：本站的讲座、培训与聚会安排。</p>` : '';
  return page(
    '文档门户',
    `<h1>文档门户</h1>\n<p>本机上的软件文档站点一览。</p>\n<ul>\n${items}\n</ul>${events}\n<p>本门户由基准测试生成。</p>`,
  );
}

/** The calendar's first page, relative to the portal. */
const CALENDAR_START = '/calendar/2026-11.html';

/** A calendar page for `/calendar/YYYY-MM.html` or `/calendar/YYYY-MM-DD.html`, or null. */
function calendarHtml(path: string): string | null {
  const match = /^\/calendar\/(\d{4})-(\d{2})(?:-(\d{2}))?\.html$/.exec(path);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (month < 1 || month > 12 || year < 1000 || year > 9999) return null;
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const monthPath = (y: number, m: number) => {
    const date = new Date(Date.UTC(y, m - 1, 1));
    return `/calendar/${iso(date).slice(0, 7)}.html`;
  };
  if (match[3] === undefined) {
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const dayLinks = Array.from({ length: days }, (_, i) => {
      const day = iso(new Date(Date.UTC(year, month - 1, i + 1)));
      return `<li><a href="/calendar/${day}.html">${month} 月 ${i + 1} 日</a>：暂无活动</li>`;
    }).join('\n');
    return page(
      `活动日历 ${year} 年 ${month} 月`,
      `<p><a href="/">文档门户</a></p>\n<h1>${year} 年 ${month} 月</h1>\n` +
        `<p><a href="${monthPath(year, month - 1)}">上个月</a> | <a href="${monthPath(year, month + 1)}">下个月</a></p>\n<ul>\n${dayLinks}\n</ul>`,
    );
  }
  const day = new Date(Date.UTC(year, month - 1, Number(match[3])));
  if (day.getUTCMonth() !== month - 1) return null;
  const shift = (n: number) => `/calendar/${iso(new Date(day.getTime() + n * 86_400_000))}.html`;
  return page(
    `活动日历 ${iso(day)}`,
    `<p><a href="/">文档门户</a> | <a href="${monthPath(year, month)}">${year} 年 ${month} 月</a></p>\n<h1>${iso(day)}</h1>\n` +
      `<p>当天暂无活动安排。</p>\n<p><a href="${shift(-1)}">前一天</a> | <a href="${shift(1)}">后一天</a></p>`,
  );
}

/** An HTML page declared and encoded in `charset` instead of UTF-8. */
function transcodeHtml(body: Buffer, charset: string): Buffer {
  const text = body
    .toString('utf8')
    .replace(/^(<\?xml[^>]*encoding=["'])[A-Za-z0-9_.:-]+/, `$1${charset}`)
    .replace(/(<meta[^>]+charset\s*=\s*["']?\s*)[A-Za-z0-9_.:-]+/i, `$1${charset}`);
  return iconv.encode(text, charset);
}

function hubHtml(self: SiteRuntime, all: SiteRuntime[], portal: string): string {
  const entries = self.entryTitles.map(([path, title]) => `<li><a href="${escapeHtml(path)}">${escapeHtml(title)}</a></li>`).join('\n');
  const related = all
    .filter((s) => s !== self)
    .map((s) => `<li><a href="${s.site.hub}">${escapeHtml(s.spec.title)}</a></li>`)
    .join('\n');
  return page(
    self.spec.title,
    `<p><a href="${portal}">文档门户</a></p>\n<h1>${escapeHtml(self.spec.title)}</h1>\n<p>${escapeHtml(self.spec.description)}</p>\n` +
      `<h2>文档</h2>\n<ul>\n${entries}\n</ul>\n<h2>相关站点</h2>\n<ul>\n${related}\n</ul>`,
  );
}

/** Maps a URL path to a file inside `root`, following symlinks only while they stay inside. */
function resolveFile(root: string, urlPath: string): { file: string; redirect?: undefined } | { redirect: string } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const candidate = join(root, decoded);
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return null; // missing, or a dangling symlink (into a package not unpacked here)
  }
  if (real !== root && !real.startsWith(root + sep)) return null;
  const stat = statSync(real);
  if (stat.isDirectory()) {
    if (!urlPath.endsWith('/')) return { redirect: `${urlPath}/` };
    const index = join(real, 'index.html');
    return existsSync(index) ? { file: index } : null;
  }
  return stat.isFile() ? { file: real } : null;
}

/** Starts the portal and every site; resolves when all listen. */
export async function startLocalWeb(options: LocalWebOptions = {}): Promise<LocalWeb> {
  const sitesDir = resolve(options.sitesDir ?? DEFAULT_SITES_DIR);
  const port = options.port ?? (Number(process.env.LINKSCENT_BENCH_PORT) || DEFAULT_PORT);
  const wanted = options.packages ? new Set(options.packages) : null;
  const specs = SITES.filter((spec) => (wanted ? wanted.has(spec.package) : true)).filter((spec) => existsSync(join(sitesDir, spec.package)));
  if (specs.length === 0) throw new Error(`local-web: no site unpacked under ${sitesDir}; run bench/fetch-debian-docs.sh`);
  // The whole web unless packages were picked: every site with its expected pages, or one line.
  const packages = wanted ? specs.map((spec) => spec.package) : SITES.map((spec) => spec.package);
  const counts = countPages({ sitesDir, site: (name) => packages.includes(name) });
  const problem = corpusProblem('local-web', packages, counts, sitesDir);
  if (problem !== undefined) throw new Error(problem);
  const portal = `http://127.0.0.1:${port}/`;

  const runtimes: SiteRuntime[] = specs.map((spec) => {
    const n = SITES.indexOf(spec) + 2;
    const address = `127.0.0.${n}`;
    const origin = `http://${address}:${port}`;
    const root = realpathSync(join(sitesDir, spec.package));
    const entryTitles: [string, string][] = [];
    for (const path of spec.entries) {
      const file = join(root, path);
      if (existsSync(file)) entryTitles.push([path, titleOf(file) ?? path]);
    }
    return {
      spec,
      root,
      address,
      entryTitles,
      site: { package: spec.package, title: spec.title, origin, hub: `${origin}/`, entries: entryTitles.map(([path]) => origin + path) },
    };
  });

  const cache = new Map<string, Buffer>();
  let requests = 0;
  let notFound = 0;
  const served: ServedResponse[] = [];

  const send = (response: ServerResponse, request: IncomingMessage, status: number, type: string, body: Buffer | string) => {
    const buffer = typeof body === 'string' ? Buffer.from(body) : body;
    if (options.log) {
      const url = `http://${request.headers.host ?? ''}${request.url ?? '/'}`;
      served.push({ url, status, type, at: performance.now(), ...(request.method === 'HEAD' ? {} : { sha256: createHash('sha256').update(buffer).digest('hex') }) });
    }
    response.writeHead(status, { 'content-type': type, 'content-length': buffer.length });
    response.end(request.method === 'HEAD' ? undefined : buffer);
  };
  const missing = (request: IncomingMessage, response: ServerResponse) => {
    notFound++;
    send(response, request, 404, 'text/html; charset=utf-8', page('404 Not Found', '<h1>404 Not Found</h1>'));
  };

  const portalPage = portalHtml(runtimes, options.calendar === true);
  const servers: Server[] = [];

  const handler = (runtime: SiteRuntime | null) => {
    const charset = runtime ? options.charsets?.[runtime.spec.package] : undefined;
    const hubUtf8 = runtime ? hubHtml(runtime, runtimes, portal) : portalPage;
    const hub = charset ? transcodeHtml(Buffer.from(hubUtf8), charset) : hubUtf8;
    const hubType = `text/html; charset=${charset ?? 'utf-8'}`;
    return (request: IncomingMessage, response: ServerResponse) => {
      requests++;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      let path: string;
      try {
        path = new URL(request.url ?? '/', 'http://localhost').pathname;
      } catch {
        missing(request, response);
        return;
      }
      if (path === '/') {
        send(response, request, 200, hubType, hub);
        return;
      }
      if (!runtime) {
        const events = options.calendar ? calendarHtml(path) : null;
        if (events !== null) send(response, request, 200, 'text/html; charset=utf-8', events);
        else missing(request, response);
        return;
      }
      const found = resolveFile(runtime.root, path);
      if (!found) {
        missing(request, response);
        return;
      }
      if (found.redirect !== undefined) {
        response.writeHead(301, { location: found.redirect, 'content-length': 0 }).end();
        return;
      }
      const cached = cache.get(found.file);
      const respond = (body: Buffer) => send(response, request, 200, contentType(found.file, body), body);
      if (cached) {
        respond(cached);
        return;
      }
      readFile(found.file).then(
        (raw) => {
          const body = charset && contentType(found.file, raw).startsWith('text/html') ? transcodeHtml(raw, charset) : raw;
          if (body.length <= CACHE_LIMIT) cache.set(found.file, body);
          respond(body);
        },
        () => missing(request, response),
      );
    };
  };

  const listen = (address: string, runtime: SiteRuntime | null) =>
    new Promise<void>((resolveListen, reject) => {
      const server = createServer({ keepAliveTimeout: 30_000 }, handler(runtime));
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(`local-web: ${address}:${port} is in use (another bench running?); set LINKSCENT_BENCH_PORT`, { cause: error })
            : error,
        ),
      );
      server.listen(port, address, () => {
        servers.push(server);
        resolveListen();
      });
    });

  const close = async () => {
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolveClose) => {
            server.closeAllConnections();
            server.close(() => resolveClose());
          }),
      ),
    );
  };

  try {
    await listen('127.0.0.1', null);
    for (const runtime of runtimes) await listen(runtime.address, runtime);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    portal,
    sites: runtimes.map((r) => r.site),
    origins: [portal.slice(0, -1), ...runtimes.map((r) => r.site.origin)],
    counts: () => ({ requests, notFound }),
    served: () => served,
    resetCounts() {
      requests = 0;
      notFound = 0;
      served.length = 0;
    },
    close,
  };
}
