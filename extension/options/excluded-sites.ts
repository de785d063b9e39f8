/**
 * The excluded-sites list as the user types it: one host per line, where a pasted URL or a
 * `*.host` wildcard is reduced to the host it names (a host already covers its subdomains, see
 * `ExtensionSettings.excludedSites`).
 */
import { parseLines } from '../ui/dom.ts';

const HOST = /^(?=.{1,253}$)[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/**
 * The host a line names (lower case, internationalised names in their ASCII form as
 * `location.hostname` has them), or null when the line is not a host or URL.
 */
export function hostOfLine(line: string): string | null {
  let text = line.trim().toLowerCase().replace(/^\*\./, '');
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(text)) text = `http://${text}`;
  let host: string;
  try {
    host = new URL(text).hostname;
  } catch {
    return null;
  }
  host = host.replace(/^\*\./, '').replace(/\.$/, '');
  return HOST.test(host) ? host : null;
}

/** The hosts of a textarea, or the first line that is not one. */
export function parseExcludedSites(text: string): { hosts: string[] } | { invalid: string } {
  const hosts: string[] = [];
  for (const line of parseLines(text)) {
    const host = hostOfLine(line);
    if (host === null) return { invalid: line };
    if (!hosts.includes(host)) hosts.push(host);
  }
  return { hosts };
}
