/**
 * Main-thread tasks of one page load, from a Chromium trace, attributed to the content script.
 *
 * Why a trace: in Chromium 156, the page's `PerformanceObserver({ type: 'longtask' })` recorded
 * no entry at all on this page (even for 200 ms layout tasks), and `long-animation-frame`
 * entries list page scripts only: a content script runs in an isolated world and is left out
 * of `scripts`, so neither can say which task was the extension's. A CDP trace of the tab
 * (`Tracing.start` on the page's session, categories below) sees every task of the renderer's
 * main thread with what ran inside it.
 *
 * Attribution: a top-level task (`ThreadControllerImpl::RunTask` on the page renderer's
 * `CrRendererMain`) belongs to the content script when anything inside it names a script under
 * `chrome-extension://<id>/`: its module evaluation, a `FunctionCall` (idle callbacks, animation
 * frame callbacks, message replies), a compile. Such a task's whole duration counts, style,
 * layout and paint included: on this static page, a frame that runs the content script's
 * animation-frame callback is there to paint its highlights.
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: Record<string, unknown>;
}

/** Categories: top-level tasks, and the DevTools timeline's script, style, layout and paint events. */
const CATEGORIES = ['toplevel', 'devtools.timeline', 'blink.user_timing', '__metadata'];
const TASK = 'ThreadControllerImpl::RunTask';

export interface TaskSummary {
  /** Longest task of the content script, ms, and when it started (ms after navigation start). */
  longestExtensionMs: number;
  /** The thread's CPU time in that task (less than the wall time when the OS ran something else). */
  longestExtensionCpuMs: number;
  longestExtensionAt: number;
  /** What took longest inside it (top three event names with ms). */
  longestExtensionInside: string;
  /** Sum of the content script's tasks, ms, and how many there were; how many over 50 ms. */
  extensionTotalMs: number;
  extensionTasks: number;
  extensionOver50: number;
  /** Longest task that is not the content script's (the page's own parsing, layout, paint). */
  longestOtherMs: number;
  /** Every main-thread task from navigation start to the end of the trace, ms. */
  mainThreadTotalMs: number;
}

export class MainThreadTrace {
  readonly #events: TraceEvent[] = [];
  readonly #cdp: CDPSession;

  private constructor(cdp: CDPSession) {
    this.#cdp = cdp;
    cdp.on('Tracing.dataCollected', (data) => this.#events.push(...(data.value as unknown as TraceEvent[])));
  }

  static async start(cdp: CDPSession): Promise<MainThreadTrace> {
    const trace = new MainThreadTrace(cdp);
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReportEvents' });
    return trace;
  }

  /**
   * Ends the trace and summarises the tasks of the renderer that parsed `pageUrl`; with
   * `saveTo`, the raw events are written there too (chrome://tracing and Perfetto open it).
   */
  async stop(pageUrl: string, extensionId: string, saveTo?: string): Promise<TaskSummary> {
    const complete = new Promise<void>((resolve) => this.#cdp.once('Tracing.tracingComplete', () => resolve()));
    await this.#cdp.send('Tracing.end');
    await complete;
    if (saveTo !== undefined) writeFileSync(saveTo, JSON.stringify({ traceEvents: this.#events }));
    return summarise(this.#events, pageUrl, `chrome-extension://${extensionId}/`);
  }
}

function mentions(event: TraceEvent, prefix: string): boolean {
  const data = (event.args?.['data'] ?? event.args?.['beginData']) as { url?: unknown } | undefined;
  if (typeof data?.url === 'string' && data.url.startsWith(prefix)) return true;
  const fileName = event.args?.['fileName'];
  return typeof fileName === 'string' && fileName.startsWith(prefix);
}

export function summarise(events: readonly TraceEvent[], pageUrl: string, extensionPrefix: string): TaskSummary {
  const parse = events.find((e) => e.name === 'ParseHTML' && (e.args?.['beginData'] as { url?: string } | undefined)?.url === pageUrl);
  if (!parse) throw new Error(`the trace has no ParseHTML of ${pageUrl}`);
  const mainTid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === parse.pid && (e.args?.['name'] as string) === 'CrRendererMain')?.tid ?? parse.tid;
  const main = events.filter((e) => e.pid === parse.pid && e.tid === mainTid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const navigation = events.find((e) => e.name === 'navigationStart' && e.pid === parse.pid && (e.args?.['data'] as { documentLoaderURL?: string } | undefined)?.documentLoaderURL === pageUrl);
  const t0 = navigation?.ts ?? parse.ts;
  const tasks = main.filter((e) => e.name === TASK && e.ts >= t0);
  const summary: TaskSummary = {
    longestExtensionMs: 0,
    longestExtensionCpuMs: 0,
    longestExtensionAt: 0,
    longestExtensionInside: '',
    extensionTotalMs: 0,
    extensionTasks: 0,
    extensionOver50: 0,
    longestOtherMs: 0,
    mainThreadTotalMs: 0,
  };
  let cursor = 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    while (cursor < main.length && main[cursor]!.ts < task.ts) cursor++;
    const inside: TraceEvent[] = [];
    for (let i = cursor; i < main.length && main[i]!.ts < end; i++) if (main[i] !== task) inside.push(main[i]!);
    const ms = (task.dur ?? 0) / 1000;
    summary.mainThreadTotalMs += ms;
    if (!inside.some((e) => mentions(e, extensionPrefix))) {
      summary.longestOtherMs = Math.max(summary.longestOtherMs, ms);
      continue;
    }
    summary.extensionTotalMs += ms;
    summary.extensionTasks += 1;
    if (ms > 50) summary.extensionOver50 += 1;
    if (ms > summary.longestExtensionMs) {
      summary.longestExtensionMs = ms;
      summary.longestExtensionCpuMs = (task.tdur ?? task.dur ?? 0) / 1000;
      summary.longestExtensionAt = (task.ts - t0) / 1000;
      // Self-ish breakdown: the events directly under the task (depth 1), by total duration.
      const byName = new Map<string, number>();
      let coveredUntil = task.ts;
      for (const e of inside) {
        if (e.ts < coveredUntil || e.name === TASK) continue;
        byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
        coveredUntil = e.ts + (e.dur ?? 0);
      }
      summary.longestExtensionInside = [...byName]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([name, d]) => `${name} ${d.toFixed(1)}`)
        .join(', ');
    }
  }
  return summary;
}
