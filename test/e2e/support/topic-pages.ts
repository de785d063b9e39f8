/**
 * A small loopback site for the extension's end-to-end test: hub pages whose finance links lead
 * under /finance/ (the topic's on-topic pattern) and whose sport links lead under /sport/ (its
 * off-topic pattern), and a test page whose links lead under /articles/, which no pattern
 * matches, so only the learned model can tell them apart.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FINANCE = ['股票 市场 行情', '基金 投资 收益', '银行 利率 贷款', '股市 上涨 指数', '债券 基金 理财', '证券 交易 股票'];
export const SPORT = ['足球 比赛 进球', '篮球 联赛 冠军', '网球 公开赛 决赛', '球队 教练 转会', '马拉松 跑步 选手', '排球 比赛 球员'];

/** Neutral text longer than the context window, so the two link groups never see each other. */
const FILLER =
  '<p>这是一个用于测试的页面。这里的文字既不谈论金融也不谈论体育，只是为了让两组链接之间隔开足够长的距离，使上下文窗口不会跨越到另一组链接。The quick brown fox jumps over the lazy dog again and again.</p>';

function list(prefix: string, anchors: readonly string[], page: number, id?: string): string {
  const items = anchors.map((anchor, i) => `<li><a href="${prefix}${page}-${i}.html">${anchor}</a></li>`).join('\n');
  return `<ul${id ? ` id="${id}"` : ''}>\n${items}\n</ul>`;
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** A hub: six finance links, filler, six sport links (rotated per page for variety). */
function hub(n: number): string {
  const rotate = (words: readonly string[]) => [...words.slice(n), ...words.slice(0, n)];
  return html(`Hub ${n}`, `<h1>门户 ${n}</h1>${list('/finance/f', rotate(FINANCE), n)}${FILLER}${list('/sport/s', rotate(SPORT), n)}${FILLER}`);
}

/** The test page: finance-worded and sport-worded links into /articles/. */
const TEST_FINANCE = ['基金 股票 投资', '银行 贷款 利率', '证券 市场 行情'];
const TEST_SPORT = ['足球 联赛 冠军', '篮球 比赛 球员', '网球 决赛 选手'];

function testPage(): string {
  const on = TEST_FINANCE.map((a, i) => `<li><a class="on" href="/articles/on-${i}.html">${a}</a></li>`).join('');
  const off = TEST_SPORT.map((a, i) => `<li><a class="off" href="/articles/off-${i}.html">${a}</a></li>`).join('');
  return html('Test page', `<h1>测试</h1><ul id="on-list">${on}</ul>${FILLER}<ul id="off-list">${off}</ul>${FILLER}<div id="later"></div>`);
}

/**
 * The test page sent in two parts: everything up to its `later` div, then, once `releaseSlow()`
 * is called, the rest. Until then the browser holds the first part parsed and the page loading.
 */
function slowTestPage(): [string, string] {
  const whole = testPage();
  const cut = whole.indexOf('<div id="later">');
  return [whole.slice(0, cut), whole.slice(cut)];
}

/** A portal linking to every hub: the seed of the companion crawl test (crawl-from-here). */
function portal(hubs: number): string {
  const items = Array.from({ length: hubs }, (_, n) => `<li><a href="/hub/${n}.html">门户 ${n}</a></li>`).join('');
  return html('Portal', `<h1>导航</h1><ul id="hubs">${items}</ul>${FILLER}`);
}

export interface TopicSite {
  origin: string;
  hubUrls: string[];
  testUrl: string;
  /** Links to every hub (and nothing else). */
  portalUrl: string;
  /** The test page, its end held back until `releaseSlow()` (`slowTestPage`). */
  slowTestUrl: string;
  releaseSlow(): void;
  close(): Promise<void>;
}

export async function startTopicSite(hubs = 4): Promise<TopicSite> {
  let releaseSlow = (): void => undefined;
  const released = new Promise<void>((resolve) => (releaseSlow = resolve));
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/slow-test.html') {
      const [start, end] = slowTestPage();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.write(start);
      void released.then(() => response.end(end));
      return;
    }
    const hubMatch = /^\/hub\/(\d+)\.html$/.exec(path);
    let body: string;
    if (hubMatch) body = hub(Number(hubMatch[1]));
    else if (path === '/test.html') body = testPage();
    else if (path === '/portal.html') body = portal(hubs);
    else if (/^\/(finance|sport|articles)\//.test(path)) body = html(path, `<p>${path}</p>`);
    else {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    hubUrls: Array.from({ length: hubs }, (_, i) => `${origin}/hub/${i}.html`),
    testUrl: `${origin}/test.html`,
    portalUrl: `${origin}/portal.html`,
    slowTestUrl: `${origin}/slow-test.html`,
    releaseSlow: () => releaseSlow(),
    close: () => {
      releaseSlow();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
