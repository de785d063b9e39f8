/** Pipeline stage 1: a page as an ordered stream of text runs, links and block breaks. */
export type { BreakSegment, LinkSegment, MetaRobots, PageSegments, Segment, TextSegment } from './types.ts';
export { SegmentBuilder, type AttributeReader, type SegmentBuilderOptions } from './segment-builder.ts';
export { segmentsFromHtml } from './from-html.ts';
export { pageText } from './page-text.ts';
export { DEFAULT_DOM_BATCH, type DomNodeLike, domWalkSteps, segmentsFromDom, walkDom } from './from-dom.ts';
export { BLOCK_ELEMENTS, DROPPED_ELEMENTS, collapseWhiteSpace, isHiddenByAttributes } from './segment-rules.ts';
