/**
 * Starting over damaged state: a crawl.json that is not JSON, or not ours, is one log line and
 * that crawl is left out; a damaged service.json gets a new token; the service starts anyway.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../companion/service/server.ts';
import { call, tempHome } from './service-helpers.ts';

const home = tempHome();
let service: RunningService | undefined;
afterAll(async () => {
  await service?.close();
  home.cleanup();
});

describe('startup over damaged state', () => {
  it('skips an unreadable crawl.json with one line, and replaces a damaged service.json', async () => {
    mkdirSync(join(home.dir, 'crawls', 'broken'), { recursive: true });
    writeFileSync(join(home.dir, 'crawls', 'broken', 'crawl.json'), '{"version": 1, "id": "broken"');
    mkdirSync(join(home.dir, 'crawls', 'alien'), { recursive: true });
    writeFileSync(join(home.dir, 'crawls', 'alien', 'crawl.json'), '{"hello": "world"}');
    writeFileSync(join(home.dir, 'service.json'), 'not json');
    const logs: string[] = [];
    service = await startService({ port: 0, home: home.dir, log: (line) => logs.push(line) });
    expect(logs.filter((line) => /skipping crawl (broken|alien)/.test(line))).toHaveLength(2);
    expect(logs.some((line) => /service\.json is damaged/.test(line))).toBe(true);
    const status = await call(service.port, '/api/status', { token: service.token });
    expect(status.status).toBe(200);
    expect(status.json().crawls).toEqual([]);
  });
});

describe('linkscent serve --help', () => {
  it('documents the default port 7431 and --reset-pairing', async () => {
    const { runCli } = await import('../support/run-cli.ts');
    const result = await runCli(['serve', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--port <P>.*\[default: LINKSCENT_PORT, else 7431\]/);
    expect(result.stdout).toContain('--reset-pairing');
  });
});
