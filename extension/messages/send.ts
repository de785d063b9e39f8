/**
 * The one typed request helper over `runtime.sendMessage`.
 *
 * A sender is built from a structural `MessageRuntime` rather than importing
 * webextension-polyfill here, so the popup, options page and content script can be exercised
 * under happy-dom with a fake `browser` object (the real one exists only inside a browser).
 * The reply type follows from the request's `type` through the protocol's `…Replies` maps.
 */
import type { ContentToBackground, ContentToBackgroundReplies } from './content-to-background.ts';
import type { ReplyOf } from './request-types.ts';
import type { UiToBackground, UiToBackgroundReplies } from './ui-to-background.ts';

/** The part of `browser.runtime` a sender needs. */
export interface MessageRuntime {
  sendMessage(message: unknown): Promise<unknown>;
}

/** Sends one request of the union `Req` and resolves to its typed reply. */
export type Send<Req extends { type: string }, Replies> = <M extends Req>(
  message: M,
) => Promise<ReplyOf<Req, Replies, M['type']>>;

export type UiSend = Send<UiToBackground, UiToBackgroundReplies>;
export type ContentSend = Send<ContentToBackground, ContentToBackgroundReplies>;

/** Raised when the background answered nothing (no handler, or the extension was reloaded). */
export class NoReplyError extends Error {
  constructor(type: string, options?: { cause?: unknown }) {
    super(`No reply from the background to '${type}'`, options);
    this.name = 'NoReplyError';
  }
}

function createSender<Req extends { type: string }, Replies>(runtime: MessageRuntime): Send<Req, Replies> {
  return async (message) => {
    let reply: unknown;
    try {
      reply = await runtime.sendMessage(message);
    } catch (cause) {
      throw new NoReplyError(message.type, { cause });
    }
    // A background without a handler for the type answers `undefined`: say so here rather than
    // letting every caller trip over a missing field.
    if (reply === undefined || reply === null) throw new NoReplyError(message.type);
    return reply as never;
  };
}

/** Popup and options → background. */
export const createUiSender = (runtime: MessageRuntime): UiSend =>
  createSender<UiToBackground, UiToBackgroundReplies>(runtime);

/** Content script → background. */
export const createContentSender = (runtime: MessageRuntime): ContentSend =>
  createSender<ContentToBackground, ContentToBackgroundReplies>(runtime);
