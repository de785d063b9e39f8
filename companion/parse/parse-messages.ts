/** The messages between the pool (`parse-pool.ts`) and a parse thread (`parse-thread.ts`). */
import type { ParsedPage } from './parse-page.ts';

export interface ParseRequest {
  id: number;
  html: string;
  pageUrl: string;
  window: number;
}

export type ParseReply =
  /** The thread has loaded its modules and takes pages. */
  | { ready: true }
  | { id: number; parsed: ParsedPage }
  | { id: number; error: { name: string; message: string } };
