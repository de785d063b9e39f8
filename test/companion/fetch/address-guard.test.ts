/**
 * The address guard: addresses classified by IANA's special-purpose ranges, and a connector that
 * connects only where its rule allows, deciding on the addresses a name resolves to when it
 * connects (DNS rebinding), and on an IP literal as it is. A real loopback server and real
 * connections; the resolver is a stub that records each name asked (a test cannot own DNS).
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKind, type AddressRule, type LookupFunction } from '../../../companion/fetch/address-guard.ts';
import { fetchPage } from '../../../companion/fetch/fetch-page.ts';
import { DEFAULT_FETCH_OPTIONS } from '../../../companion/fetch/fetch-options.ts';
import { createGuardedAgent } from '../../../companion/fetch/http-agent.ts';
import { startScriptedSite, type ScriptedSite } from '../support/hostile-server.ts';

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['fe80::1', 'private'],
    ['[fe80::1]', 'private'],
    ['0.0.0.0', 'never'],
    ['0.1.2.3', 'never'],
    ['::', 'never'],
    ['224.0.0.1', 'never'],
    ['255.255.255.255', 'never'],
    ['192.0.2.7', 'never'],
    ['ff02::1', 'never'],
    ['not an address', 'never'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2001:4860:4860::8888', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('a guarded agent', () => {
  let site: ScriptedSite;
  let port: string;
  beforeAll(async () => {
    site = await startScriptedSite({ page: () => '<p>a page</p>' });
    port = new URL(site.origin).port;
  });
  afterAll(() => site.close());

  /** A resolver of `names`, recording each name asked. */
  function stub(names: Record<string, string>, asked: string[]): LookupFunction {
    return (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
      asked.push(hostname);
      const address = names[hostname];
      if (address === undefined) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (options.all) callback(null, [{ address, family: 4 }]);
      else callback(null, address, 4);
    };
  }

  const publicOnly: AddressRule = (hostname, address) => (addressKind(address) === 'public' ? undefined : `${hostname} (${address}) is not public`);

  async function fetchWith(url: string, rule: AddressRule, lookup?: LookupFunction) {
    const agent = createGuardedAgent({ connectTimeoutMs: 5_000, rule, ...(lookup ? { lookup } : {}) });
    try {
      return await fetchPage(url, DEFAULT_FETCH_OPTIONS, agent);
    } finally {
      await agent.destroy();
    }
  }

  it('refuses an IP literal the rule refuses, without connecting', async () => {
    const before = site.requests.length;
    const page = await fetchWith(`${site.origin}/x`, publicOnly);
    expect(page).toMatchObject({ outcome: 'address-denied', status: 0, error: '127.0.0.1 (127.0.0.1) is not public', retryable: false });
    expect(site.requests.length).toBe(before);
  });

  it('checks the address a name resolves to when it connects, not the name', async () => {
    const asked: string[] = [];
    const before = site.requests.length;
    const page = await fetchWith(`http://news.example:${port}/x`, publicOnly, stub({ 'news.example': '127.0.0.1' }, asked));
    expect(page).toMatchObject({ outcome: 'address-denied', error: 'news.example (127.0.0.1) is not public' });
    expect(asked).toEqual(['news.example']);
    expect(site.requests.length).toBe(before);
  });

  it('connects where the rule allows, by name and by address', async () => {
    const anything: AddressRule = () => undefined;
    const asked: string[] = [];
    expect(await fetchWith(`http://site.test:${port}/y`, anything, stub({ 'site.test': '127.0.0.1' }, asked))).toMatchObject({ outcome: 'ok', status: 200 });
    expect(await fetchWith(`${site.origin}/z`, anything)).toMatchObject({ outcome: 'ok' });
    expect(site.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/y', '/z']));
  });
});
