/**
 * The topics the focus and seeds benches crawl for, on the local web of Debian documentation
 * (`local-web.ts`), and what both do with them: the teaching a new user would do, and the count
 * of a crawl from the server's side.
 *
 * A topic's URL patterns define "on topic" for the teaching, for the judge and for the count
 * alike (seed 000 §3.2.2's method). Nothing is tuned per topic: every topic gets the same commands.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileUrlPatterns } from '../../shared/urls/url-pattern.ts';
import { linkscent } from './cli-child.ts';
import type { LocalWeb } from './local-web.ts';
import { targets, type ServedGraph } from './served-graph.ts';

export interface BenchTopic {
  id: string;
  name: string;
  /** The package whose site holds the topic. */
  site: string;
  /** On-topic URL patterns (globs): the teaching's positives and the count's truth. */
  positive: string[];
  /** The topic's entry page, a path on its site. */
  entry: string;
  /** best-first's topic keywords. */
  keywords: string;
  /**
   * Seed 004's knowledge base for the keywords (`term: related, related`), what the thesis takes
   * from CN-DBpedia: written once from general knowledge of the subject, before any crawl with it
   * ran, and not revised after (a knowledge base tuned to the crawls would prove nothing).
   */
  knowledgeBase: string[];
}

const LO = '/usr/share/libreoffice/help/zh-CN/text';

/** Four topics on three sites; one English, one served GBK-encoded. */
export const TOPICS: BenchTopic[] = [
  {
    id: 'calc',
    name: 'LibreOffice Calc help (zh-CN)',
    site: 'libreoffice-help-zh-cn',
    positive: ['*/text/scalc/*'],
    entry: `${LO}/scalc/main0000.html`,
    keywords: 'LibreOffice Calc 电子表格 工作表 单元格 函数 公式',
    knowledgeBase: [
      '电子表格: 工作表, 单元格, 行, 列, 图表, 数据透视表, 排序, 筛选',
      '函数: 参数, 数学函数, 统计函数, 日期函数, 文本函数',
      '公式: 运算符, 引用, 计算',
    ],
  },
  {
    id: 'basic',
    name: 'LibreOffice Basic macros (zh-CN)',
    site: 'libreoffice-help-zh-cn',
    positive: ['*/text/sbasic/*'],
    entry: `${LO}/sbasic/shared/main0601.html`,
    keywords: 'LibreOffice Basic 宏 编程 语句 运行时函数 变量 对话框',
    knowledgeBase: [
      '宏: 脚本, 模块, 子程序, 宏编辑器',
      '编程: 程序, 代码, 语法, 调试, 错误处理',
      '变量: 数组, 数据类型, 常量, 声明',
      '对话框: 控件, 按钮, 列表框, 事件',
    ],
  },
  {
    id: 'gimp-filters',
    name: 'GIMP filters (zh-CN, served as GBK)',
    site: 'gimp-help-zh-cn',
    positive: ['*/zh_CN/filters*', '*/zh_CN/gimp-filter-*'],
    entry: '/usr/share/gimp/2.0/help/zh_CN/filters.html',
    keywords: 'GIMP 滤镜 模糊 扭曲 噪点 渲染 光照 艺术',
    knowledgeBase: [
      '滤镜: 效果, 图像处理, 锐化, 边缘检测, 增强',
      '模糊: 高斯模糊, 动态模糊',
      '艺术: 油画, 素描, 卡通, 马赛克',
      '渲染: 图案, 纹理, 云彩',
    ],
  },
  {
    id: 'python-c-api',
    name: 'Python/C API reference (English)',
    site: 'python3.11-doc',
    positive: ['*/html/c-api/*'],
    entry: '/usr/share/doc/python3.11/html/c-api/index.html',
    keywords: 'Python C API PyObject reference counting object types extension module',
    knowledgeBase: [
      'PyObject: object, type object, Py_INCREF, Py_DECREF',
      'reference counting: reference, borrowed reference, garbage collection',
      'extension module: module, initialization, method table',
      'API: function, macro, header',
    ],
  },
];

/** The items whose ids the comma-separated `env` names; all of them when it is unset. */
export function pick<T extends { id: string }>(items: T[], env: string | undefined): T[] {
  if (!env) return items;
  const wanted = new Set(env.split(',').map((s) => s.trim()));
  return items.filter((item) => wanted.has(item.id));
}

/** What a bench needs of one topic on the served web: its entry URL, its test, its targets, a work folder. */
export interface TopicOnWeb {
  /** The topic's entry page on its site. */
  entry: string;
  onTopic: (url: string) => boolean;
  /** A response that counts: on topic and answered 200. */
  isTarget: (url: string, status: number) => boolean;
  /** The on-topic pages of the served graph. */
  targetSet: Set<string>;
  /** `workDir/<topic id>`, created. */
  dir: string;
}

export function topicOnWeb(topic: BenchTopic, web: LocalWeb, graph: ServedGraph, workDir: string): TopicOnWeb {
  const site = web.sites.find((s) => s.package === topic.site);
  if (!site) throw new Error(`site ${topic.site} is not served`);
  const onTopic = compileUrlPatterns(topic.positive);
  const dir = join(workDir, topic.id);
  mkdirSync(dir, { recursive: true });
  return {
    entry: site.origin + topic.entry,
    onTopic,
    isTarget: (url, status) => status === 200 && onTopic(url),
    targetSet: targets(graph, onTopic),
    dir,
  };
}

/** The responses the web sent since the last reset, robots.txt left out: a crawl's fetch order. */
export function servedFetches(web: LocalWeb): { url: string; status: number }[] {
  return web.served().filter((r) => !r.url.endsWith('/robots.txt'));
}

/** Pages `collect` reads to teach a topic. */
export const COLLECT_PAGES = 600;

/**
 * Teaches as a new user would: `collect` from `seeds` (the topic's entry page, and the portal or
 * not), links into the topic's pages positive (its URL patterns), then `train` with the defaults
 * and those patterns. Returns the two commands' last lines.
 */
export async function teach(topic: BenchTopic, seeds: readonly string[], labeled: string, model: string, env: Record<string, string>): Promise<{ collected: string; trained: string }> {
  const positives = topic.positive.flatMap((p) => ['--positive', p]);
  const collected = await linkscent(
    ['collect', ...seeds, ...positives, '--max-pages', String(COLLECT_PAGES), '--delay-ms', '0', '--concurrency', '1', '--topic', topic.id, '--out', labeled],
    env,
  );
  const trained = await linkscent(['train', labeled, '--out', model, ...positives], env);
  return { collected: lastLine(collected.stdout), trained: lastLine(trained.stdout) };
}

const lastLine = (text: string): string => text.trim().split('\n').at(-1)!;
