/**
 * The companion's one-line promise (a failure is one clear line) for any error, wherever it is
 * reported: the command line's stderr, the service's log and its error replies, a crawl's record.
 */

/** The first non-blank line of an error's message; its name when the message is blank. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split('\n').find((line) => line.trim() !== '') ?? text;
  return first.trim() || (error instanceof Error ? error.name : 'unknown error');
}
