import { describe, expect, it, vi } from 'vitest';
import { createRouter, RefusedMessageError, type ContentHandlers, type UiHandlers } from '../../../extension/background/router.ts';
import { CONTENT_TYPES } from '../../../extension/messages/content-to-background.ts';
import { UI_TYPES } from '../../../extension/messages/ui-to-background.ts';

const ID = 'abcdefghijklmnop';
const ORIGIN = `chrome-extension://${ID}/`;

function handlers<T extends readonly string[]>(types: T) {
  return Object.fromEntries(types.map((type) => [type, vi.fn(async () => ({ handled: type }))]));
}

function setup() {
  const content = handlers(CONTENT_TYPES) as unknown as ContentHandlers;
  const ui = handlers(UI_TYPES) as unknown as UiHandlers;
  const route = createRouter({ extensionId: ID, extensionOrigin: ORIGIN, content, ui });
  return { route, content, ui };
}

const contentSender = { id: ID, url: 'https://example.org/a', frameId: 0, tab: { id: 7 } };
const popupSender = { id: ID, url: `${ORIGIN}extension/popup/index.html` };

describe('background router', () => {
  it('hands a content message to its handler with the tab taken from the sender', async () => {
    const { route, content } = setup();
    await expect(route({ type: 'page/count', pageUrl: 'https://evil.test/', onTopic: 3, total: 9 }, contentSender)).resolves.toEqual({
      handled: 'page/count',
    });
    expect(content['page/count']).toHaveBeenCalledWith(expect.objectContaining({ onTopic: 3 }), { tabId: 7, url: 'https://example.org/a' });
  });

  it('hands a UI message from an extension page (popup, or options in a tab) to its handler', async () => {
    const { route, ui } = setup();
    await route({ type: 'topics/list' }, popupSender);
    await route({ type: 'settings/get' }, { ...popupSender, url: `${ORIGIN}extension/options/index.html`, tab: { id: 3 } });
    expect(ui['topics/list']).toHaveBeenCalledTimes(1);
    expect(ui['settings/get']).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['another extension', { ...contentSender, id: 'someone-else' }],
    ['no tab', { id: ID, url: 'https://example.org/' }],
    ['a subframe', { ...contentSender, frameId: 3 }],
    ['an extension page', { ...popupSender, tab: { id: 2 } }],
    ['a file: page', { ...contentSender, url: 'file:///etc/passwd' }],
  ])('refuses a content message from %s', async (_, sender) => {
    const { route, content } = setup();
    await expect(route({ type: 'page/links', pageUrl: 'x', title: '', links: [], first: true }, sender)).rejects.toBeInstanceOf(
      RefusedMessageError,
    );
    expect(content['page/links']).not.toHaveBeenCalled();
  });

  it('refuses a UI message from a web page (a content script cannot drive the options)', async () => {
    const { route, ui } = setup();
    await expect(route({ type: 'db/import', fileText: '{}' }, contentSender)).rejects.toThrow(/not from an extension page/);
    await expect(route({ type: 'topics/delete', topicId: 't' }, { id: 'other', url: `chrome-extension://other/x.html` })).rejects.toThrow();
    expect(ui['db/import']).not.toHaveBeenCalled();
    expect(ui['topics/delete']).not.toHaveBeenCalled();
  });

  it('leaves messages that are not LinkScent requests to other listeners', () => {
    const { route } = setup();
    expect(route('hello', popupSender)).toBeUndefined();
    expect(route({ kind: 'x' }, popupSender)).toBeUndefined();
    expect(route({ type: 'something/else' }, popupSender)).toBeUndefined();
  });

  it('routes every message type of the protocol (no type without a handler)', async () => {
    const { route } = setup();
    for (const type of CONTENT_TYPES) await expect(route({ type }, contentSender)).resolves.toEqual({ handled: type });
    for (const type of UI_TYPES) await expect(route({ type }, popupSender)).resolves.toEqual({ handled: type });
  });
});
