/** Blocks of a page: the one block split behind seed 002's content blocks and seed 004's main content. */
export { joinRuns, pageBlocks, type BlockLink, type PageBlock } from './page-blocks.ts';
export { contentBlocks, type ContentBlock } from './content-blocks.ts';
export { extractMainContent, mainContentTexts, MAIN_CONTENT_TAGS, type MainContent } from './main-content.ts';
