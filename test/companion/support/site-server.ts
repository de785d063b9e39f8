/**
 * A topical loopback site for crawl tests: 财经 (finance, the target topic), 体育 (sports) and
 * 娱乐 (entertainment) articles, each linking mostly to its own topic (topical locality, the
 * premise of every focused crawler) and a little across, with Chinese anchors made of topic
 * words and article text around the inline links. Pages are generated on demand, so the site
 * can be large; everything is deterministic.
 *
 *   /                      home: the three sections and two headlines of each topic, interleaved
 *   /{topic}/              section: the first six articles
 *   /{topic}/{i}.html      article i: four same-topic links, one per other topic, the nav bar
 *   /private/{i}.html      linked from every tenth finance article; robots.txt disallows it
 *   /robots.txt            `Disallow: /private/`
 *   /special/…             not linked from the site, for seeding directly: `nofollow.html` (meta
 *                          robots nofollow, links to a.html), `noindex.html` (meta noindex, links
 *                          to b.html), `rel.html` (rel="nofollow" link to c.html, plain link to
 *                          d.html), `redirect.html` (302 to d.html); a–d are plain pages
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SITE_TOPICS = ['finance', 'sports', 'ent'] as const;
export type SiteTopic = (typeof SITE_TOPICS)[number];

const WORDS: Record<SiteTopic, { name: string; subjects: string[]; events: string[]; text: string[] }> = {
  finance: {
    name: '财经',
    subjects: ['央行', '沪深股市', '人民币汇率', '国债', '银行理财', '公募基金', '上市公司', '房贷利率', '债券市场', '保险资金'],
    events: ['下调准备金率', '指数全面上涨', '震荡走低', '发布季度财报', '净利润增长', '资金净流入', '利率回落', '估值修复'],
    text: ['分析人士认为货币政策保持稳健，银行间市场利率平稳运行。', '券商和保险股表现活跃，两市成交额放大，投资者情绪回暖。', '机构预计企业盈利继续改善，债券收益率低位震荡。'],
  },
  sports: {
    name: '体育',
    subjects: ['国足', '中超联赛', 'CBA总决赛', '中国女排', '国乒', '羽毛球名将', '马拉松', '游泳队', '网球公开赛', '田径队'],
    events: ['主场逆转取胜', '爆冷出局', '晋级八强', '夺得冠军', '主教练下课', '门将扑出点球', '打破赛会纪录', '加时赛险胜'],
    text: ['比赛第三十分钟主队前锋头球破门，客队随后加强进攻。', '赛后主教练表示球队防守执行得很好，下一轮全力以赴。', '本赛季联赛竞争激烈，积分榜前四名分差很小。'],
  },
  ent: {
    name: '娱乐',
    subjects: ['新电影', '偶像歌手', '综艺节目', '电视剧', '演唱会', '导演', '影后', '动画片', '音乐节', '话剧'],
    events: ['票房破十亿', '官宣定档', '热播收官', '巡演开启', '获最佳女主角', '首映礼举行', '口碑逆袭', '新歌上线'],
    text: ['影片上映首周票房表现亮眼，观众评价两极分化。', '节目组透露新一季嘉宾阵容，粉丝热情高涨。', '剧组在横店拍摄多日，导演对演员表现十分满意。'],
  },
};

export interface SiteServerOptions {
  /** Articles per topic. Default 40. */
  perTopic?: number;
  /** Delay before each response, ms. Default 0. */
  delayMs?: number;
}

export interface SiteServer {
  origin: string;
  perTopic: number;
  /** Paths requested so far, in order (robots.txt included). */
  requests: string[];
  /** The HTML of a path, or undefined for a 404. */
  html(path: string): string | undefined;
  /** Every page path of the site (robots-disallowed ones included). */
  paths(): string[];
  close(): Promise<void>;
}

const headline = (topic: SiteTopic, i: number) => {
  const w = WORDS[topic];
  return `${w.subjects[i % w.subjects.length]}${w.events[(i * 3 + Math.floor(i / w.subjects.length)) % w.events.length]}`;
};
const articlePath = (topic: SiteTopic, i: number) => `/${topic}/${i}.html`;
const others = (topic: SiteTopic) => SITE_TOPICS.filter((t) => t !== topic);
const link = (topic: SiteTopic, i: number) => `<a href="${articlePath(topic, i)}">${headline(topic, i)}</a>`;

const NAV = `<div class="nav"><a href="/">首页</a> | ${SITE_TOPICS.map((t) => `<a href="/${t}/">${WORDS[t].name}</a>`).join(' | ')}</div>`;

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${NAV}${body}</body></html>`;
}

function article(topic: SiteTopic, i: number, n: number): string {
  const w = WORDS[topic];
  const same = [2 * i + 1, 2 * i + 2, i + 3, i + 7].map((j) => j % n).filter((j) => j !== i);
  const cross = others(topic).map((t, k) => link(t, (i * 5 + k * 11 + 1) % n));
  const priv = topic === 'finance' && i % 10 === 0 ? `<p><a href="/private/${i}.html">内部资料${headline(topic, i)}</a></p>` : '';
  return page(
    headline(topic, i),
    `<h1>${headline(topic, i)}</h1><p>${w.text[i % 3]}延伸阅读：${link(topic, same[0]!)}，${w.text[(i + 1) % 3]}</p>
<div class="related"><h2>相关${w.name}新闻</h2><ul>${same.slice(1).map((j) => `<li>${link(topic, j)}</li>`).join('')}</ul></div>
<div class="side"><h2>其他频道</h2><ul>${cross.map((a) => `<li>${a}</li>`).join('')}</ul></div>${priv}`,
  );
}

function section(topic: SiteTopic, n: number): string {
  const w = WORDS[topic];
  const items = Array.from({ length: Math.min(6, n) }, (_, i) => `<li>${link(topic, i)}</li>`).join('');
  return page(`${w.name}频道`, `<h1>${w.name}频道</h1><p>${w.text[0]}</p><ul>${items}</ul>`);
}

function home(): string {
  const items: string[] = [];
  for (const i of [0, 1]) for (const t of SITE_TOPICS) items.push(`<li>${link(t, i)}</li>`);
  return page('新闻网首页', `<h1>今日要闻</h1><p>欢迎访问新闻网。</p><ul>${items.join('')}</ul>`);
}

const SPECIAL: Record<string, string> = {
  '/special/nofollow.html': page('不跟随', '<p><a href="/special/a.html">甲</a></p>', '<meta name="robots" content="nofollow">'),
  '/special/noindex.html': page('不索引', '<p><a href="/special/b.html">乙</a></p>', '<meta name="robots" content="noindex">'),
  '/special/rel.html': page('链接', '<p><a rel="nofollow" href="/special/c.html">丙</a> 和 <a href="/special/d.html">丁</a></p>'),
  '/special/a.html': page('甲', '<p>甲</p>'),
  '/special/b.html': page('乙', '<p>乙</p>'),
  '/special/c.html': page('丙', '<p>丙</p>'),
  '/special/d.html': page('丁', '<p>丁</p>'),
};

function render(path: string, n: number): string | undefined {
  if (path === '/') return home();
  const match = /^\/(finance|sports|ent)\/(?:(\d+)\.html)?$/.exec(path);
  if (match) {
    const topic = match[1] as SiteTopic;
    if (match[2] === undefined) return section(topic, n);
    const i = Number(match[2]);
    return i < n ? article(topic, i, n) : undefined;
  }
  const special = SPECIAL[path];
  if (special) return special;
  const priv = /^\/private\/(\d+)\.html$/.exec(path);
  if (priv) return page('内部资料', '<p>内部资料，请勿外传。</p>');
  return undefined;
}

export async function startSiteServer(options: SiteServerOptions = {}): Promise<SiteServer> {
  const n = options.perTopic ?? 40;
  const delayMs = options.delayMs ?? 0;
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    requests.push(path);
    const reply = () => {
      if (path === '/robots.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
        return;
      }
      if (path === '/special/redirect.html') {
        response.writeHead(302, { location: '/special/d.html' }).end();
        return;
      }
      const html = render(path, n);
      if (html === undefined) response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>404</body></html>');
      else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    };
    if (delayMs > 0 && path !== '/robots.txt') setTimeout(reply, delayMs);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    perTopic: n,
    requests,
    html: (path) => render(path, n),
    paths: () => [
      '/',
      ...SITE_TOPICS.flatMap((t) => [`/${t}/`, ...Array.from({ length: n }, (_, i) => articlePath(t, i))]),
      ...Array.from({ length: Math.ceil(n / 10) }, (_, k) => `/private/${k * 10}.html`),
    ],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
