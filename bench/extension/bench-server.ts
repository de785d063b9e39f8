/**
 * The benchmark's loopback web server (127.0.0.1, a free port):
 *
 *   /site/<package>/<path>   a Debian documentation page as it is (training), or a generated
 *                            training page when the documentation is absent
 *   /bench/<run>.html        the benchmark page of one run (registered with `setPage`)
 *   /r/…                     the benchmark page's link targets: a one-line page
 *
 * Only HTML is served; stylesheets, scripts and images of the documentation are 404s, so the
 * training pages cost the browser little and run none of the manuals' own scripts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from './bench-page.ts';
import type { BenchContext } from './doc-pages.ts';
import { siteFile } from './doc-pages.ts';

export interface BenchServer {
  origin: string;
  setPage(run: number, html: string): string;
  close(): Promise<void>;
}

/** A generated training page: 40 links into its own package, anchors and text from `pool`. */
function generatedTrainingPage(site: string, n: number, pool: readonly BenchContext[]): string {
  const own = pool.filter((c) => c.site === site);
  const items = Array.from({ length: 40 }, (_, i) => {
    const c = own[(n * 40 + i) % own.length]!;
    return `<p>${escapeHtml(c.before)}<a href="/site/${site}/p${n}-${i}.html">${escapeHtml(c.anchor)}</a>${escapeHtml(c.after)}</p>`;
  });
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${site} ${n}</title></head><body>${items.join('\n')}</body></html>`;
}

export async function startBenchServer(generated: readonly BenchContext[] | null): Promise<BenchServer> {
  const pages = new Map<number, string>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const send = (body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    const bench = /^\/bench\/(\d+)\.html$/.exec(path);
    if (bench && pages.has(Number(bench[1]))) return send(pages.get(Number(bench[1]))!);
    if (path.startsWith('/r/')) return send(`<!doctype html><meta charset="utf-8"><title>${escapeHtml(path)}</title><p>${escapeHtml(path)}</p>`);
    const generatedPage = /^\/site\/(generated-(?:on|off))\/p(\d+)(?:-\d+)?\.html$/.exec(path);
    if (generated && generatedPage) return send(generatedTrainingPage(generatedPage[1]!, Number(generatedPage[2]), generated));
    const file = generated ? null : siteFile(path);
    if (file) return send(readFileSync(file, 'utf8'));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    setPage(run, html) {
      pages.set(run, html);
      return `${origin}/bench/${run}.html`;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
