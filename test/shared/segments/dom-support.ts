/**
 * Test support: DOM trees for `segmentsFromDom`, standing in for the browser DOM the extension
 * walks. happy-dom gives a real `Document`; parse5 gives the spec's tree.
 */
import type { Window } from 'happy-dom';
import type { DomNodeLike } from '../../../shared/segments/index.ts';
import { parsingWindow } from '../../support/happy-dom-window.ts';

/** Parse `html` into a happy-dom document at `url`, hand it to `use`, then close the window. */
export async function withDocument<T>(html: string, url: string, use: (document: Window['document']) => T): Promise<T> {
  const window = parsingWindow(url);
  try {
    window.document.write(html);
    return use(window.document);
  } finally {
    await window.happyDOM.close();
  }
}

/**
 * parse5 is the WHATWG-conformant HTML tree builder (what browsers build, to the node). It is not
 * a declared dependency of LinkScent (it arrives with @crawlee/cheerio), so the parity test runs
 * against it only when it resolves; `undefined` otherwise.
 */
export async function loadParse5Parser(): Promise<((html: string) => DomNodeLike) | undefined> {
  const module: { parse?: (html: string) => Parse5Node } | undefined = await import('parse5').catch(() => undefined);
  const parse = module?.parse;
  return parse === undefined ? undefined : (html) => adaptParse5(parse(html));
}

interface Parse5Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  data?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Parse5Node[];
}

const PARSE5_NODE_TYPES: Record<string, number> = { '#document': 9, '#document-fragment': 11, '#text': 3, '#comment': 8, '#documentType': 10 };

/** parse5's plain tree as `DomNodeLike` (its `<template>` keeps children in `content`, as a DOM does). */
function adaptParse5(node: Parse5Node): DomNodeLike {
  return {
    nodeType: PARSE5_NODE_TYPES[node.nodeName] ?? 1,
    nodeName: node.nodeName,
    localName: node.tagName ?? null,
    nodeValue: node.value ?? null,
    childNodes: (node.childNodes ?? []).map(adaptParse5),
    getAttribute: (name) => node.attrs?.find((attribute) => attribute.name === name)?.value ?? null,
  };
}
