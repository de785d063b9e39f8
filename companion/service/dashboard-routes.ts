/**
 * The dashboard: `GET /dashboard?token=T` (the page) and its two static files. The page holds no
 * data; its script reads the token from the page's address and calls the API like any client,
 * so the dashboard needs no privilege the API does not check. Script and style are files of their
 * own so that the Content-Security-Policy can forbid every inline script and style.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tokenEquals } from './guard.ts';
import { HttpError, sendBody } from './http-io.ts';
import { packageFile } from '../platform/package-root.ts';

const ASSETS: Record<string, { file: string; type: string }> = {
  '/dashboard': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/dashboard.js': { file: 'dashboard.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/harvest-chart.js': { file: 'harvest-chart.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/page-detail.js': { file: 'page-detail.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/dashboard.css': { file: 'dashboard.css', type: 'text/css; charset=utf-8' },
};

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Whether the path is the dashboard's; the caller has checked Host and Origin. */
export function isDashboardPath(pathname: string): boolean {
  return Object.hasOwn(ASSETS, pathname);
}

export function serveDashboard(request: IncomingMessage, response: ServerResponse, url: URL, token: string): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') throw new HttpError(405, `${url.pathname} takes GET`, { allow: 'GET' });
  const asset = ASSETS[url.pathname]!;
  if (asset.file === 'index.html') {
    const given = url.searchParams.get('token');
    if (given === null || !tokenEquals(given, token)) {
      throw new HttpError(401, given === null ? 'the dashboard needs ?token=<pairing token>' : 'wrong pairing token');
    }
  }
  // Read on each request: a few kB, and an edit shows without a restart.
  const body = readFileSync(packageFile(`companion/service/dashboard/${asset.file}`));
  sendBody(response, 200, request.method === 'HEAD' ? '' : body, { 'content-type': asset.type, 'content-security-policy': CSP });
}
