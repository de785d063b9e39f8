/**
 * A small Chinese news site with two topics on 127.0.0.1, for end-to-end tests of the command
 * line: 财经 (finance) articles under /finance/, 体育 (sports) articles under /sports/, a home
 * page, two section indexes and two neutral pages.
 *
 * It is built to look like the pages seed 000 learned from: every page has a nav bar (a run of
 * links whose contexts are each other's anchors), article text with an inline link (a context
 * of nearby text), a "related" list of same-topic headlines and a sidebar of the other topic's
 * headlines (cross links), and a footer. Headlines are made from topic words, so anchors carry
 * the topic, some headlines share words across topics (市场, 冠军, 纪录), and every list ends in a
 * generic "更多" link whose topic only its context tells. Everything is deterministic.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SiteTopic = 'finance' | 'sports';

export interface SitePage {
  path: string;
  /** The topic of an article or section page; null for home, about and contact. */
  topic: SiteTopic | null;
  title: string;
}

export interface TopicSite {
  /** `http://127.0.0.1:PORT` without a trailing slash. */
  origin: string;
  pages: SitePage[];
  /** The HTML served at a path (for tests that feed pages directly). */
  html(path: string): string;
  /** Every path requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export const ARTICLES_PER_TOPIC = 12;

const FINANCE_SUBJECTS = ['央行', '沪深股市', '人民币汇率', '国债收益率', '银行理财', '公募基金', '上市公司', '房贷利率', '外汇储备', '债券市场', '创业板', '保险资金'];
const FINANCE_EVENTS = ['下调存款准备金率', '三大指数全面上涨', '震荡走低', '市场创年内新高', '发布季度财报', '净利润同比增长', '北向资金净流入', '利率小幅回落', '估值修复行情', '迎来分红季', '成交额放大', '监管新规出台'];
const SPORTS_SUBJECTS = ['国足', '中超联赛', 'CBA总决赛', '中国女排', '国乒', '羽毛球名将', '北京马拉松', '游泳队', '网球公开赛', '田径世锦赛', '足协杯', '冬奥会'];
const SPORTS_EVENTS = ['主场逆转取胜', '爆冷出局', '晋级八强', '夺得冠军', '主教练下课', '球员转会市场升温', '门将扑出点球', '打破赛会纪录', '加时赛险胜', '开赛前瞻', '队长伤愈复出', '积分榜领跑'];

const FINANCE_TEXT = [
  '分析人士认为，货币政策保持稳健，流动性合理充裕，银行间市场利率平稳运行。',
  '从板块看，券商、银行和保险股表现活跃，两市成交额超过八千亿元，投资者情绪有所回暖。',
  '多家机构预计，下半年企业盈利将继续改善，债券收益率或在低位震荡，基金发行节奏加快。',
  '统计数据显示，居民存款继续增加，理财产品净值企稳，外资持续增持人民币资产。',
];
const SPORTS_TEXT = [
  '比赛第三十分钟，主队前锋接队友传中头球破门，客队随后加强进攻，但门将多次化解险情。',
  '赛后主教练表示，球队在防守端执行得很好，年轻球员的表现让人满意，下一轮将全力以赴。',
  '本赛季联赛竞争激烈，积分榜前四名分差很小，球迷期待冠军争夺在最后几轮才见分晓。',
  '运动员们在训练中加强体能储备，为即将到来的世界大赛做准备，教练组对出场阵容保密。',
];

function headline(topic: SiteTopic, i: number): string {
  const [subjects, events] = topic === 'finance' ? [FINANCE_SUBJECTS, FINANCE_EVENTS] : [SPORTS_SUBJECTS, SPORTS_EVENTS];
  return `${subjects[i % subjects.length]}${events[(i * 5) % events.length]}`;
}

function articlePath(topic: SiteTopic, i: number): string {
  return `/${topic}/${i + 1}.html`;
}

const other = (topic: SiteTopic): SiteTopic => (topic === 'finance' ? 'sports' : 'finance');
const sectionName = (topic: SiteTopic) => (topic === 'finance' ? '财经' : '体育');

const NAV = '<div class="nav"><a href="/">首页</a> | <a href="/finance/">财经</a> | <a href="/sports/">体育</a> | <a href="/about.html">关于我们</a></div>';
const FOOTER = '<div class="footer"><p>本站新闻仅供参考 <a href="/contact.html">联系我们</a> 版权所有 © 2024 新闻网</p></div>';

function page(title: string, keywords: string, description: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title} - 新闻网</title>
<meta name="keywords" content="${keywords}"><meta name="description" content="${description}"></head>
<body>${NAV}${body}${FOOTER}</body></html>`;
}

/**
 * A headline list, closed by a generic "更多" (more) link to the section: the same anchor leads
 * to either topic, so only its context (the headline before it) tells which. That is where
 * seed 000's group 2 (anchor + context) earns its keep over group 1 (anchor alone).
 */
function list(topic: SiteTopic, indexes: number[]): string {
  const items = indexes.map((i) => `<li><a href="${articlePath(topic, i)}">${headline(topic, i)}</a></li>`).join('');
  return `<ul>${items}<li><a href="/${topic}/">更多</a></li></ul>`;
}

function article(topic: SiteTopic, i: number): string {
  const text = topic === 'finance' ? FINANCE_TEXT : SPORTS_TEXT;
  const n = ARTICLES_PER_TOPIC;
  const next = (i + 1) % n;
  const related = [(i + 2) % n, (i + 3) % n, (i + 7) % n];
  const cross = [(i + 1) % n, (i + 6) % n];
  const keywords = topic === 'finance' ? '财经,股票,基金,银行,利率' : '体育,足球,篮球,比赛,冠军';
  const body = `<h1>${headline(topic, i)}</h1>
<p>${text[i % 4]}${text[(i + 1) % 4]}</p>
<p>${text[(i + 2) % 4]}延伸阅读：<a href="${articlePath(topic, next)}">${headline(topic, next)}</a>，${text[(i + 3) % 4]}</p>
<div class="related"><h2>相关${sectionName(topic)}新闻</h2>${list(topic, related)}</div>
<div class="side"><h2>热门${sectionName(other(topic))}</h2>${list(other(topic), cross)}</div>`;
  return page(headline(topic, i), keywords, text[i % 4]!, body);
}

function section(topic: SiteTopic): string {
  const all = Array.from({ length: ARTICLES_PER_TOPIC }, (_, i) => i);
  const text = topic === 'finance' ? FINANCE_TEXT : SPORTS_TEXT;
  return page(
    `${sectionName(topic)}频道`,
    sectionName(topic),
    text[0]!,
    `<h1>${sectionName(topic)}频道</h1><p>${text[1]}</p>${list(topic, all)}<div class="side"><h2>热门${sectionName(other(topic))}</h2>${list(other(topic), [0, 1])}</div>`,
  );
}

function home(): string {
  return page(
    '新闻网首页',
    '新闻,财经,体育',
    '新闻网：财经与体育新闻',
    `<h1>今日要闻</h1><p>欢迎访问新闻网，这里有最新的财经和体育报道。</p>
<h2>财经</h2>${list('finance', [0, 1, 2, 3])}<h2>体育</h2>${list('sports', [0, 1, 2, 3])}`,
  );
}

function plain(title: string, text: string): string {
  return page(title, '新闻网', text, `<h1>${title}</h1><p>${text}</p>`);
}

function buildSite(): Map<string, { html: string; page: SitePage }> {
  const site = new Map<string, { html: string; page: SitePage }>();
  const add = (path: string, topic: SiteTopic | null, title: string, html: string) => site.set(path, { html, page: { path, topic, title } });
  add('/', null, '新闻网首页', home());
  add('/about.html', null, '关于我们', plain('关于我们', '新闻网成立于二〇〇八年，是一家综合新闻网站，编辑部位于北京。'));
  add('/contact.html', null, '联系我们', plain('联系我们', '如有问题请发送电子邮件与编辑部联系，我们会尽快回复。'));
  for (const topic of ['finance', 'sports'] as const) {
    add(`/${topic}/`, topic, `${sectionName(topic)}频道`, section(topic));
    for (let i = 0; i < ARTICLES_PER_TOPIC; i++) add(articlePath(topic, i), topic, headline(topic, i), article(topic, i));
  }
  return site;
}

/** Starts the site on an ephemeral loopback port. */
export async function startTopicSite(): Promise<TopicSite> {
  const site = buildSite();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    requests.push(path);
    if (path === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    const entry = site.get(path);
    if (!entry) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>404</body></html>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(entry.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    pages: [...site.values()].map((entry) => entry.page),
    html(path) {
      const entry = site.get(path);
      if (!entry) throw new Error(`topic-site: no page ${path}`);
      return entry.html;
    },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
