/**
 * Charset handling: label normalisation and the order of evidence as pure functions, then the
 * Chinese pages of the hostile server fetched for real (GBK by header, by meta, by nothing at
 * all; Big5; a BOM that contradicts the header).
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charsetFromContentType, decodeHtml, normalizeCharset, sniffMetaCharset } from '../../../companion/fetch/charset.ts';
import { DEFAULT_FETCH_OPTIONS } from '../../../companion/fetch/fetch-options.ts';
import { fetchPage } from '../../../companion/fetch/fetch-page.ts';
import { closeSharedAgents } from '../../../companion/fetch/http-agent.ts';
import { BIG5_TEXT, CHINESE_TEXT, startHostileServer, type HostileServer } from '../support/hostile-server.ts';

describe('normalizeCharset', () => {
  it.each([
    ['gb2312', 'gb18030'], ['GBK', 'gb18030'], ['x-gbk', 'gb18030'], ['"GB2312"', 'gb18030'], ['cp936', 'gb18030'],
    ['GB18030', 'gb18030'], ['Big5', 'big5'], ['big5-hkscs', 'big5'], ['x-x-big5', 'big5'],
    ['UTF8', 'utf-8'], [' utf-8 ', 'utf-8'], ['ISO-8859-1', 'windows-1252'], ['us-ascii', 'windows-1252'],
    ['shift_jis', 'shift_jis'],
  ])('%s → %s', (label, expected) => {
    expect(normalizeCharset(label)).toBe(expected);
  });

  it('returns undefined for an unknown or empty label', () => {
    expect(normalizeCharset('klingon-8')).toBeUndefined();
    expect(normalizeCharset('')).toBeUndefined();
    expect(normalizeCharset(undefined)).toBeUndefined();
  });
});

describe('charset evidence', () => {
  const gbk = (html: string): Buffer => iconv.encode(html, 'gbk');

  it('reads the charset parameter of a Content-Type, quoted or not', () => {
    expect(charsetFromContentType('text/html; charset=GBK')).toBe('GBK');
    expect(charsetFromContentType('text/html;charset="big5"; foo=bar')).toBe('big5');
    expect(charsetFromContentType('text/html')).toBeUndefined();
  });

  it('finds <meta charset> and <meta http-equiv> but not one inside a comment', () => {
    expect(sniffMetaCharset(Buffer.from('<head><meta charset="gb2312"></head>'))).toBe('gb2312');
    expect(sniffMetaCharset(Buffer.from('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=big5">'))).toBe('big5');
    expect(sniffMetaCharset(Buffer.from('<!-- <meta charset="big5"> --><meta charset=gbk>'))).toBe('gbk');
  });

  it('only looks at the first 4 KiB for a meta tag', () => {
    const late = Buffer.from(`<html><head>${' '.repeat(5000)}<meta charset="gbk"></head>`);
    expect(sniffMetaCharset(late)).toBeUndefined();
  });

  it('prefers the header to a meta tag', () => {
    const bytes = gbk('<meta charset="big5"><p>中文</p>');
    expect(decodeHtml(bytes, 'text/html; charset=gbk')).toMatchObject({ charset: 'gb18030', source: 'header' });
  });

  it('lets a byte order mark override a wrong header, as browsers do', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>中文</p>')]);
    expect(decodeHtml(bytes, 'text/html; charset=gbk')).toEqual({ text: '<p>中文</p>', charset: 'utf-8', source: 'bom' });
  });

  it('ignores an undecodable header label and uses the next evidence', () => {
    const bytes = gbk('<meta charset="gbk"><p>中文</p>');
    expect(decodeHtml(bytes, 'text/html; charset=klingon')).toMatchObject({ text: '<meta charset="gbk"><p>中文</p>', source: 'meta' });
  });

  it('defaults to UTF-8 and falls back to GB18030 only when the bytes are not UTF-8', () => {
    expect(decodeHtml(Buffer.from('<p>中文 café</p>'))).toMatchObject({ text: '<p>中文 café</p>', charset: 'utf-8', source: 'default' });
    expect(decodeHtml(gbk('<p>简体中文</p>'))).toEqual({ text: '<p>简体中文</p>', charset: 'gb18030', source: 'fallback' });
  });

  it('keeps UTF-8 with replacement characters when GB18030 cannot decode the bytes either', () => {
    const bytes = Buffer.from([0x3c, 0x70, 0x3e, 0xff, 0xff, 0xff, 0x3c]);
    const decoded = decodeHtml(bytes);
    expect(decoded.charset).toBe('utf-8');
    expect(decoded.text).toContain('\ufffd');
  });
});

describe('fetchPage decodes Chinese pages', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    await closeSharedAgents();
    await server.close();
  });

  it.each([
    ['/gbk/header', 'gb18030', 'header', CHINESE_TEXT],
    ['/gbk/meta', 'gb18030', 'meta', CHINESE_TEXT],
    ['/gbk/meta-charset', 'gb18030', 'meta', CHINESE_TEXT],
    ['/gbk/undeclared', 'gb18030', 'fallback', CHINESE_TEXT],
    ['/big5', 'big5', 'header', BIG5_TEXT],
    ['/utf8-bom', 'utf-8', 'bom', CHINESE_TEXT],
  ])('%s → %s from %s', async (path, charset, source, text) => {
    const page = await fetchPage(`${server.origin}${path}`, DEFAULT_FETCH_OPTIONS);
    expect(page).toMatchObject({ outcome: 'ok', charset, charsetSource: source });
    expect(page.html).toContain(text);
    expect(page.html).not.toContain('\ufffd');
  });
});
