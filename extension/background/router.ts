/**
 * Message routing with sender checks (STYLE.md 5: transport apart from logic).
 *
 * The router takes plain messages and a plain sender description and hands them to typed
 * handlers; it knows nothing of `browser.runtime`. Who may send what:
 * - content messages only from this extension's content script in a tab's top frame, on an
 *   http(s) page: the page cannot be an extension page, and the tab id is taken from the sender,
 *   never from the message;
 * - UI messages only from this extension's own pages (popup, options).
 * Anything else is refused with an Error, never acted on.
 */
import { CONTENT_TYPES, type ContentToBackground, type ContentToBackgroundReplies } from '../messages/content-to-background.ts';
import type { RequestOf } from '../messages/request-types.ts';
import { UI_TYPES, type UiToBackground, type UiToBackgroundReplies } from '../messages/ui-to-background.ts';

/** The part of `runtime.MessageSender` the checks read. */
export interface SenderInfo {
  id?: string;
  url?: string;
  frameId?: number;
  tab?: { id?: number };
}

/** Where a content message came from, as the sender (not the message) says. */
export interface ContentOrigin {
  tabId: number;
  /** The sending frame's URL. */
  url: string;
}

export type ContentHandlers = {
  [K in ContentToBackground['type']]: (
    message: RequestOf<ContentToBackground, K>,
    origin: ContentOrigin,
  ) => Promise<ContentToBackgroundReplies[K]>;
};

export type UiHandlers = {
  [K in UiToBackground['type']]: (message: RequestOf<UiToBackground, K>) => Promise<UiToBackgroundReplies[K]>;
};

export interface RouterOptions {
  extensionId: string;
  /** `runtime.getURL('')`, e.g. `chrome-extension://abc/`. */
  extensionOrigin: string;
  content: ContentHandlers;
  ui: UiHandlers;
}

export class RefusedMessageError extends Error {
  constructor(reason: string) {
    super(`LinkScent refused a message: ${reason}`);
    this.name = 'RefusedMessageError';
  }
}

const contentTypes: ReadonlySet<string> = new Set(CONTENT_TYPES);
const uiTypes: ReadonlySet<string> = new Set(UI_TYPES);

function typeOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const type = (message as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** The content origin of a sender, or a reason it is not a content script of ours. */
export function contentOrigin(sender: SenderInfo, options: Pick<RouterOptions, 'extensionId' | 'extensionOrigin'>): ContentOrigin | string {
  if (sender.id !== options.extensionId) return 'not from this extension';
  const tabId = sender.tab?.id;
  if (tabId === undefined || tabId < 0) return 'content message without a tab';
  if (sender.frameId !== undefined && sender.frameId !== 0) return 'content message from a subframe';
  const url = sender.url ?? '';
  if (!/^https?:\/\//.test(url)) return 'content message from a page that is not http(s)';
  return { tabId, url };
}

export function isExtensionPage(sender: SenderInfo, options: Pick<RouterOptions, 'extensionId' | 'extensionOrigin'>): boolean {
  return sender.id === options.extensionId && (sender.url ?? '').startsWith(options.extensionOrigin);
}

/**
 * A `runtime.onMessage` listener body: resolves to the reply, rejects when refused, and returns
 * undefined for messages that are not LinkScent requests at all (so other listeners may answer).
 */
export function createRouter(options: RouterOptions) {
  return (message: unknown, sender: SenderInfo): Promise<unknown> | undefined => {
    const type = typeOf(message);
    if (type === undefined) return undefined;
    if (contentTypes.has(type)) {
      const origin = contentOrigin(sender, options);
      if (typeof origin === 'string') return Promise.reject(new RefusedMessageError(`${type}: ${origin}`));
      const handler = options.content[type as ContentToBackground['type']] as (m: unknown, o: ContentOrigin) => Promise<unknown>;
      return handler(message, origin);
    }
    if (uiTypes.has(type)) {
      if (!isExtensionPage(sender, options)) return Promise.reject(new RefusedMessageError(`${type}: not from an extension page`));
      const handler = options.ui[type as UiToBackground['type']] as (m: unknown) => Promise<unknown>;
      return handler(message);
    }
    return undefined;
  };
}
