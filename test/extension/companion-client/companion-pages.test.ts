import { describe, expect, it } from 'vitest';
import { carriesToken, isCompanionPage, isLoopbackHost } from '../../../extension/companion-client/companion-pages.ts';

const TOKEN = 'Abcdefghijklmnop_0123456789-xyz';

describe("the companion's own pages", () => {
  it('knows loopback hosts', () => {
    expect(['127.0.0.1', '127.3.4.5', 'localhost', 'app.localhost', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['128.0.0.1', 'example.org', '127.0.0.1.example.org', 'localhost.example.org'].some(isLoopbackHost)).toBe(false);
  });

  it('is any page on loopback at the paired port, dashboard or not', () => {
    expect(isCompanionPage(`http://127.0.0.1:7431/dashboard?token=${TOKEN}#crawl=c1`, 7431)).toBe(true);
    expect(isCompanionPage('http://localhost:7431/api/status', 7431)).toBe(true);
    expect(isCompanionPage('http://127.0.0.1:8080/dashboard', 7431)).toBe(false);
    expect(isCompanionPage('http://docs.example.org:7431/', 7431)).toBe(false);
    expect(isCompanionPage('http://127.0.0.1/', 80)).toBe(true);
    expect(isCompanionPage('not a url', 7431)).toBe(false);
  });

  it('finds the stored token anywhere in a URL, and any token parameter on loopback', () => {
    expect(carriesToken(`https://example.org/x?ref=${TOKEN}`, TOKEN)).toBe(true);
    expect(carriesToken('http://127.0.0.1:9999/dashboard?token=someoldtoken1234567', TOKEN)).toBe(true);
    expect(carriesToken('https://example.org/login?token=abc', TOKEN)).toBe(false);
    expect(carriesToken('https://example.org/page', '')).toBe(false);
  });
});
