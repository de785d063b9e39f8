/**
 * A small loopback web of three sites behind a directory page, for focus-from-a-distance tests
 * (issue 11). The topic, 摄影 (photography), lies two hops behind the directory:
 *
 *   directory (网址导航)  →  数码社区 home  →  摄影 section  →  摄影 articles (the topic)
 *
 * and around it what a real directory leads to: a 生活 (lifestyle) site and a 体育 (sports)
 * site, each with a home page linking `PAGES` articles, the 数码 site's other sections (手机,
 * 电脑), and an endless 活动日历 (events calendar) on the directory's own host. Breadth-first,
 * every article of the other sites and the calendar's first days come before any photo article.
 *
 * Each site has its own loopback address (127.0.0.2 directory, .3 数码, .4 生活, .5 体育, one
 * port), so a crawl meets four hosts as on the web; `byName` maps host names (`dir.test`, …) to
 * those addresses for tests that resolve names themselves. Requests are logged in order.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export const THREE_SITE_HOSTS = {
  dir: '127.0.0.2',
  digital: '127.0.0.3',
  life: '127.0.0.4',
  sports: '127.0.0.5',
} as const;

type SiteName = keyof typeof THREE_SITE_HOSTS;

/** Host name → address, for a test's own DNS. */
export const byName: Record<string, string> = {
  'dir.test': THREE_SITE_HOSTS.dir,
  'digital.test': THREE_SITE_HOSTS.digital,
  'life.test': THREE_SITE_HOSTS.life,
  'sports.test': THREE_SITE_HOSTS.sports,
};

/** Articles per section. */
export const PAGES = 24;

export interface ThreeSiteWeb {
  /** Origin of each site, by the way the test addresses it (IP by default, names with `names`). */
  origin: Record<SiteName, string>;
  /** The directory page, the crawl's start. */
  directory: string;
  /** The topic's entry page (the 摄影 section). */
  entry: string;
  /** The topic's URL pattern. */
  topicPattern: string;
  /** Every request served, in order, as absolute URLs (robots.txt included). */
  requests: string[];
  /**
   * From now on, every page (robots.txt aside, which a crawl asks before it starts) is answered
   * only once `until` settles. A test that starts several crawlers releases the web when all of
   * them are up, so that how the pages fall between them does not depend on their start-up.
   */
  holdPages(until: Promise<unknown>): void;
  close(): Promise<void>;
}

const SECTIONS: Record<string, { title: string; words: string[]; kind: string }> = {
  photo: { title: '摄影', words: ['相机', '镜头', '光圈', '快门', '曝光', '构图', '人像摄影', '风光摄影', '白平衡', '长焦'], kind: '拍摄心得' },
  phone: { title: '手机', words: ['手机', '屏幕', '电池', '处理器', '充电', '系统更新', '信号', '续航', '折叠屏', '芯片'], kind: '上手评测' },
  pc: { title: '电脑', words: ['笔记本', '显卡', '内存', '硬盘', '键盘', '显示器', '主板', '散热', '固态', '接口'], kind: '装机指南' },
  life: { title: '生活', words: ['美食', '家居', '旅行', '健康', '菜谱', '收纳', '养生', '咖啡', '花园', '早餐'], kind: '生活窍门' },
  sports: { title: '体育', words: ['足球', '篮球', '比赛', '冠军', '球队', '联赛', '进球', '教练', '球迷', '赛季'], kind: '赛事回顾' },
};

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

function headline(section: string, i: number): string {
  const { words, kind } = SECTIONS[section]!;
  return `${words[i % words.length]}与${words[(i * 3 + 1) % words.length]}${kind}`;
}

function articleList(origin: string, section: string, from: number, count: number): string {
  return Array.from({ length: count }, (_, k) => from + k)
    .map((i) => `<li><a href="${origin}/${section}/${i}.html">${headline(section, i)}</a></li>`)
    .join('');
}

function article(origin: string, section: string, i: number, home: string): string {
  const { title, words } = SECTIONS[section]!;
  const related = [1, 2, 3].map((k) => (i + k) % PAGES);
  return page(
    `${headline(section, i)} - ${title}`,
    `<p><a href="${home}">首页</a></p><h1>${headline(section, i)}</h1>` +
      `<p>本文介绍${words[i % words.length]}和${words[(i + 2) % words.length]}的经验，${words[(i + 4) % words.length]}也很重要。</p>` +
      `<h2>相关文章</h2><ul>${related.map((r) => `<li><a href="${origin}/${section}/${r}.html">${headline(section, r)}</a></li>`).join('')}</ul>`,
  );
}

/** Starts the four sites; `names` makes the origins use host names (`dir.test`) instead of addresses. */
export async function startThreeSiteWeb(options: { port?: number; names?: boolean } = {}): Promise<ThreeSiteWeb> {
  const requests: string[] = [];
  const servers: Server[] = [];
  let port = options.port ?? 0;
  const origin = {} as Record<SiteName, string>;
  let hold: Promise<unknown> | undefined;
  const hostFor = (site: SiteName) => (options.names ? `${site === 'dir' ? 'dir' : site}.test` : THREE_SITE_HOSTS[site]);

  const handle = (site: SiteName) => (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push(`${origin[site]}${path}`);
    const send = (status: number, html: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    };
    if (path === '/robots.txt') {
      response.writeHead(404).end();
      return;
    }
    const answer = () => {
      const html = render(site, path);
      if (html === undefined) send(404, page('404', '<h1>404</h1>'));
      else send(200, html);
    };
    if (hold) void hold.then(answer, answer);
    else answer();
  };

  const render = (site: SiteName, path: string): string | undefined => {
    const o = origin[site];
    if (site === 'dir') {
      if (path === '/') {
        return page(
          '网址导航',
          `<h1>网址导航</h1><ul><li><a href="${origin.life}/">生活网</a>：美食、家居与旅行</li>` +
            `<li><a href="${origin.digital}/">数码社区</a>：手机、电脑与影像器材</li>` +
            `<li><a href="${origin.sports}/">体育新闻</a>：足球、篮球与赛事</li></ul>` +
            `<p><a href="${o}/calendar/1.html">活动日历</a></p>`,
        );
      }
      const day = /^\/calendar\/(\d+)\.html$/.exec(path);
      if (day) {
        const n = Number(day[1]);
        return page(`活动日历 第${n}天`, `<p><a href="${o}/">导航</a></p><p>当天暂无活动。</p><p><a href="${o}/calendar/${n + 1}.html">后一天</a> <a href="${o}/calendar/${n + 2}.html">后两天</a></p>`);
      }
      return undefined;
    }
    if (site === 'digital') {
      if (path === '/') {
        return page(
          '数码社区',
          `<h1>数码社区</h1><ul><li><a href="${o}/phone/">手机频道</a></li><li><a href="${o}/pc/">电脑频道</a></li><li><a href="${o}/photo/">影像频道</a></li></ul>` +
            `<h2>热门</h2><ul>${articleList(o, 'phone', 0, 6)}${articleList(o, 'pc', 0, 6)}</ul>`,
        );
      }
      const section = /^\/(phone|pc|photo)\/$/.exec(path);
      if (section) {
        const name = section[1]!;
        return page(`${SECTIONS[name]!.title}频道`, `<p><a href="${o}/">数码社区</a></p><h1>${SECTIONS[name]!.title}</h1><ul>${articleList(o, name, 0, PAGES)}</ul>`);
      }
      const item = /^\/(phone|pc|photo)\/(\d+)\.html$/.exec(path);
      if (item && Number(item[2]) < PAGES) return article(o, item[1]!, Number(item[2]), `${o}/`);
      return undefined;
    }
    const name = site; // life, sports: a home listing every article
    if (path === '/') return page(SECTIONS[name]!.title, `<h1>${SECTIONS[name]!.title}</h1><ul>${articleList(o, name, 0, PAGES)}</ul>`);
    const item = new RegExp(`^/${name}/(\\d+)\\.html$`).exec(path);
    if (item && Number(item[1]) < PAGES) return article(o, name, Number(item[1]), `${o}/`);
    return undefined;
  };

  const sites = Object.keys(THREE_SITE_HOSTS) as SiteName[];
  try {
    for (const site of sites) {
      const server = createServer(handle(site));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, THREE_SITE_HOSTS[site], () => resolve());
      });
      servers.push(server);
      if (port === 0) port = (server.address() as { port: number }).port;
      origin[site] = `http://${hostFor(site)}:${port}`;
    }
  } catch (error) {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    throw error;
  }
  return {
    origin,
    directory: `${origin.dir}/`,
    entry: `${origin.digital}/photo/`,
    topicPattern: '*/photo/*.html',
    requests,
    holdPages(until) {
      hold = until;
    },
    async close() {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
