/**
 * The companion's own pages (issue 12): its dashboard and every other page `linkscent serve`
 * answers, on loopback at the paired port. The content script does not run there (nothing to
 * learn, and a dashboard's URLs carry the pairing token), and no link or page URL that carries
 * the token is ever stored: the token is this installation's secret, and examples travel in
 * model files.
 *
 * Pure: tested in Node, used by the content handlers and the upgrade clean-up.
 */
import { parseUrl } from '../../shared/urls/normalize-url.ts';

/** 127.0.0.0/8, `localhost` (and its subdomains), `[::1]`: where the companion listens. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return /^127(?:\.\d{1,3}){3}$/u.test(host) || host === 'localhost' || host.endsWith('.localhost') || host === '[::1]';
}

/** Whether `url` is a page of the companion service listening on `port`. */
export function isCompanionPage(url: string, port: number): boolean {
  const parsed = parseUrl(url);
  if (parsed === undefined || !/^https?:$/u.test(parsed.protocol) || !isLoopbackHost(parsed.hostname)) return false;
  const urlPort = /:(\d+)$/u.exec(parsed.host)?.[1];
  return Number(urlPort ?? (parsed.protocol === 'https:' ? 443 : 80)) === port;
}

/**
 * Whether `url` carries a pairing token: the stored one anywhere in it, or any `token` query
 * parameter on a loopback host (a token from an earlier pairing, or another companion's).
 */
export function carriesToken(url: string, token: string): boolean {
  if (token !== '' && url.includes(token)) return true;
  const parsed = parseUrl(url);
  return parsed !== undefined && isLoopbackHost(parsed.hostname) && /[?&]token=/u.test(parsed.search);
}
