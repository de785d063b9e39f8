/**
 * Marking one link on or off topic from the context menu (source 'user').
 *
 * When the link's context is stored already (its page sent it and the topic's patterns labeled
 * it), the mark relabels it: same target, same page. Otherwise the link is learned from what the
 * menu click tells: its URL and anchor text (the context the page never sent is not known).
 */
import type { Label, LabeledLink, Topic } from '../../shared/model/types.ts';
import { normalizeUrl } from '../../shared/urls/normalize-url.ts';
import type { WorkerCaller } from './services.ts';

export const MENU_IDS = { on: 'linkscent-mark-on', off: 'linkscent-mark-off' } as const;

export function labelOfMenuItem(menuItemId: string | number): Label | null {
  if (menuItemId === MENU_IDS.on) return 1;
  if (menuItemId === MENU_IDS.off) return 0;
  return null;
}

export interface LinkClick {
  linkUrl: string;
  pageUrl: string;
  /** The link's text, when the browser reports it. */
  linkText?: string;
}

/** Labels the clicked link; returns how many examples that made (0 when the URLs are not web URLs). */
export async function markLink(worker: WorkerCaller, topic: Topic, click: LinkClick, label: Label): Promise<number> {
  const url = normalizeUrl(click.linkUrl, click.pageUrl);
  const pageUrl = normalizeUrl(click.pageUrl, click.pageUrl);
  if (url === undefined || pageUrl === undefined) return 0;
  const { labeled } = await worker.call('labelTarget', (remote) => remote.labelTarget(topic, url, label, 'user', pageUrl));
  if (labeled > 0) return labeled;
  const example: LabeledLink = { url, pageUrl, anchor: click.linkText ?? '', before: '', after: '', label, source: 'user', topic: topic.id };
  const { added } = await worker.call('observe', (remote) => remote.observe(topic, [example]));
  return added;
}
