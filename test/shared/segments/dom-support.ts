/**
 * Test support: DOM trees for `segmentsFromDom`, standing in for the browser DOM the extension
 * walks. happy-dom gives a real `Document`; parse5 gives the spec's tree.
 */
import type { Window } from 'happy-dom';
import { parse } from 'parse5';
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

/** `html` as parse5, the WHATWG-conformant HTML tree builder, builds it: what a browser builds, to the node. */
export function parse5Document(html: string): DomNodeLike {
  return adaptParse5(parse(html) as unknown as Parse5Node);
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
    firstChild: siblings((node.childNodes ?? []).map(adaptParse5)),
    nextSibling: null,
    getAttribute: (name) => node.attrs?.find((attribute) => attribute.name === name)?.value ?? null,
  };
}

/** Links `children` through `nextSibling`, as a DOM does; returns the first (the parent's `firstChild`). */
export function siblings(children: DomNodeLike[]): DomNodeLike | null {
  for (let i = 0; i + 1 < children.length; i++) (children[i] as { nextSibling: DomNodeLike | null }).nextSibling = children[i + 1]!;
  return children[0] ?? null;
}
