/**
 * Who may talk to the service: the real service on a free loopback port, refusing every request
 * that lacks the token, names another host, or comes from a foreign or second extension origin,
 * each with one JSON sentence; pairing persisted in service.json (0600) across restarts.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bodyBytesHeld } from '../../../companion/service/http-io.ts';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { call, tempHome } from './service-helpers.ts';

let home: ReturnType<typeof tempHome>;
let service: RunningService;
const logs: string[] = [];
const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

beforeAll(async () => {
  home = tempHome();
  service = await startService({ port: 0, home: home.dir, log: (line) => logs.push(line) });
});
afterAll(async () => {
  await service?.close();
  home?.cleanup();
});

describe('startService', () => {
  it('listens on 127.0.0.1 at a free port and returns its url, port and token', () => {
    expect(service.port).toBeGreaterThan(0);
    expect(service.url).toBe(`http://127.0.0.1:${service.port}`);
    expect(service.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
  });

  it('keeps the token in service.json, mode 0600', () => {
    const path = join(home.dir, 'service.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ token: service.token });
  });
});

describe('refusals', () => {
  it('no token: 401 with one JSON sentence', async () => {
    const reply = await call(service.port, '/api/status');
    expect(reply.status).toBe(401);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json().error).toMatch(/Authorization/);
  });

  it('wrong token, or a token of another length: 401', async () => {
    for (const token of ['x'.repeat(43), 'short', `${service.token}x`]) {
      const reply = await call(service.port, '/api/status', { token });
      expect(reply.status).toBe(401);
      expect(reply.json()).toEqual({ error: 'wrong pairing token' });
    }
  });

  it('foreign Host (DNS rebinding): 403 even with the token', async () => {
    for (const host of [`evil.example:${service.port}`, '127.0.0.1', `127.0.0.1:${service.port + 1}`]) {
      const reply = await call(service.port, '/api/status', { token: service.token, host });
      expect(reply.status).toBe(403);
      expect(reply.json().error).toMatch(/Host/);
    }
    expect((await call(service.port, '/api/status', { token: service.token, host: `localhost:${service.port}` })).status).toBe(200);
  });

  it('foreign web Origin: 403 even with the token', async () => {
    const reply = await call(service.port, '/api/status', { token: service.token, origin: 'https://evil.example' });
    expect(reply.status).toBe(403);
    expect(reply.json().error).toMatch(/Origin https:\/\/evil\.example is refused/);
  });

  it('pre-flight OPTIONS from a foreign origin: 403, and no CORS header anywhere', async () => {
    const reply = await call(service.port, '/api/crawls', {
      method: 'OPTIONS',
      origin: 'https://evil.example',
      headers: { 'access-control-request-method': 'POST' },
    });
    expect(reply.status).toBe(403);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('own origin (the dashboard) and no origin (curl) are accepted', async () => {
    expect((await call(service.port, '/api/status', { token: service.token, origin: service.url })).status).toBe(200);
    expect((await call(service.port, '/api/status', { token: service.token })).status).toBe(200);
  });
});

describe('pairing', () => {
  it('an extension origin with a wrong token pins nothing', async () => {
    expect((await call(service.port, '/api/status', { token: 'wrong', origin: EXTENSION })).status).toBe(401);
    expect(JSON.parse(readFileSync(join(home.dir, 'service.json'), 'utf8')).origin).toBeNull();
  });

  it('the first extension origin with the token is pinned; any other is then 403', async () => {
    const first = await call(service.port, '/api/status', { token: service.token, origin: EXTENSION });
    expect(first.status).toBe(200);
    expect(first.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(readFileSync(join(home.dir, 'service.json'), 'utf8')).origin).toBe(EXTENSION);
    expect((await call(service.port, '/api/status', { token: service.token, origin: EXTENSION })).status).toBe(200);
    for (const other of ['chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba', 'moz-extension://1b2c3d4e-0000-4000-8000-000000000000']) {
      const reply = await call(service.port, '/api/status', { token: service.token, origin: other });
      expect(reply.status).toBe(403);
      expect(reply.json().error).toMatch(/paired with another extension/);
    }
    const preflight = await call(service.port, '/api/status', { method: 'OPTIONS', origin: 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba' });
    expect(preflight.status).toBe(403);
  });

  it('survives a restart; resetPairing makes a new token and forgets the origin', async () => {
    await service.close();
    service = await startService({ port: 0, home: home.dir, log: () => {} });
    const again = JSON.parse(readFileSync(join(home.dir, 'service.json'), 'utf8'));
    expect(again).toEqual({ token: service.token, origin: EXTENSION });
    const old = service.token;
    await service.close();
    service = await startService({ port: 0, home: home.dir, resetPairing: true, log: () => {} });
    expect(service.token).not.toBe(old);
    expect(JSON.parse(readFileSync(join(home.dir, 'service.json'), 'utf8'))).toEqual({ token: service.token, origin: null });
    expect((await call(service.port, '/api/status', { token: old })).status).toBe(401);
  });
});

describe('the dashboard', () => {
  it('is 401 without or with a wrong token, 200 with it, under a CSP with no inline script', async () => {
    expect((await call(service.port, '/dashboard')).status).toBe(401);
    expect((await call(service.port, '/dashboard?token=nope')).status).toBe(401);
    const page = await call(service.port, `/dashboard?token=${encodeURIComponent(service.token)}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline/);
    expect(page.text).toContain('<script src="/dashboard/dashboard.js"');
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('serves its script and style, and refuses a foreign Host for them too', async () => {
    const script = await call(service.port, '/dashboard/dashboard.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await call(service.port, '/dashboard/dashboard.css')).status).toBe(200);
    expect((await call(service.port, '/dashboard/dashboard.js', { host: 'evil.example' })).status).toBe(403);
  });
});

describe('bad requests: one JSON error each, and the service goes on', () => {
  const cases: [string, string, object | string | undefined, number, RegExp][] = [
    ['GET', '/api/nowhere', undefined, 404, /no API route/],
    ['DELETE', '/api/crawls', undefined, 405, /takes GET, POST/],
    ['GET', '/favicon.ico', undefined, 404, /nothing at/],
    ['POST', '/api/crawls', '{not json', 400, /not JSON/],
    ['POST', '/api/crawls', '', 400, /empty/],
    ['POST', '/api/crawls', [], 400, /JSON object/],
    ['POST', '/api/crawls', { seeds: [] }, 400, /seeds/],
    ['POST', '/api/crawls', { seeds: ['ftp://example.org/'] }, 400, /seed "ftp:\/\/example.org\/" is not an absolute http\(s\) URL/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], colour: 'red' }, 400, /unknown field "colour"/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], maxPages: 0 }, 400, /maxPages must be a whole number from 1 to 100000/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], maxPages: 100001 }, 400, /maxPages/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], delayMs: -1 }, 400, /delayMs/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], concurrency: 1.5 }, 400, /concurrency/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], strategy: 'nb' }, 400, /strategy nb needs a modelId/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], strategy: 'dfs' }, 400, /strategy must be "nb" or "bfs"/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], sameSite: 'yes' }, 400, /sameSite/],
    ['POST', '/api/crawls', { seeds: ['http://127.0.0.1:1/'], modelId: '0123456789abcdef' }, 400, /modelId: no model "0123456789abcdef"/],
    ['POST', '/api/models', '', 400, /empty/],
    ['POST', '/api/models', '{"a":1}', 400, /not a Dexie export/],
    ['POST', '/api/models', 'garbage', 400, /model file/],
    ['GET', '/api/models/../../service', undefined, 404, /./],
    ['GET', '/api/models/0123456789abcdef', undefined, 404, /no model/],
    ['GET', '/api/crawls/nope', undefined, 404, /no crawl "nope"/],
    ['POST', '/api/crawls/nope/pause', undefined, 404, /no crawl/],
    ['GET', '/api/crawls/nope/pages?offset=-1', undefined, 400, /offset/],
  ];
  for (const [method, path, body, status, message] of cases) {
    it(`${method} ${path} ${body === undefined ? '' : JSON.stringify(body).slice(0, 60)} → ${status}`, async () => {
      const reply = await call(service.port, path, { method, body, token: service.token });
      expect(reply.status).toBe(status);
      expect(Object.keys(reply.json())).toEqual(['error']);
      expect(reply.json().error).toMatch(message);
    });
  }

  // Issue 13, item 11: twelve uploads of 63 MiB at once held 1 GB.
  it('uploads past the bytes the service may hold at once are turned away with 503, and taken again once those end', async () => {
    const held: ClientRequest[] = [];
    const upload = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: service.port, path: '/api/models', method: 'POST', headers: { host: `127.0.0.1:${service.port}`, authorization: `Bearer ${service.token}`, 'content-type': 'application/json', 'content-length': String(60 << 20) } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.write('{"formatName": ');
        held.push(req);
      });
    void upload().catch(() => undefined);
    void upload().catch(() => undefined);
    await vi.waitFor(() => expect(bodyBytesHeld()).toBe(120 << 20), { timeout: 10_000, interval: 20 });
    const third = await upload();
    expect(third).toBe(503);
    for (const req of held) req.destroy();
    await vi.waitFor(() => expect(bodyBytesHeld()).toBe(0), { timeout: 10_000, interval: 20 });
    expect((await call(service.port, '/api/status', { token: service.token })).status).toBe(200);
  });

  it('a model file over the size cap is 413, and the service still answers', async () => {
    const reply = await call(service.port, '/api/models', { method: 'POST', token: service.token, headers: { 'content-length': String(65 << 20) }, body: undefined });
    expect(reply.status).toBe(413);
    expect((await call(service.port, '/api/status', { token: service.token })).status).toBe(200);
  });
});
