/** An HTML body decoded when its text is first read (`companion/fetch/html-bytes.ts`). */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeHtml } from '../../../companion/fetch/charset.ts';
import { decodeOnRead } from '../../../companion/fetch/html-bytes.ts';
import type { FetchedPage, HtmlBytes } from '../../../companion/fetch/types.ts';

const page = (body: HtmlBytes): FetchedPage & { body: HtmlBytes } => ({ url: 'http://a.test/', finalUrl: 'http://a.test/', status: 200, contentType: 'text/html', bytes: body.bytes.length, redirects: [], outcome: 'ok', body });

describe('decodeOnRead', () => {
  it('gives the text, charset and source charset.ts finds, from an unlabelled GBK page', () => {
    const bytes = iconv.encode('<p>简体中文的页面</p>', 'gbk');
    const fetched = decodeOnRead(page({ bytes }));
    const expected = decodeHtml(bytes);
    expect(expected.charset).toBe('gb18030');
    expect([fetched.html, fetched.charset, fetched.charsetSource]).toEqual([expected.text, expected.charset, expected.source]);
  });

  it("reads the header's charset", () => {
    const fetched = decodeOnRead(page({ bytes: iconv.encode('<p>Café</p>', 'latin1'), contentType: 'text/html; charset=iso-8859-1' }));
    expect(fetched.html).toBe('<p>Café</p>');
    expect(fetched.charsetSource).toBe('header');
  });

  it('lists html among the fields, and lets it be written', () => {
    const fetched = decodeOnRead(page({ bytes: new TextEncoder().encode('<p>x</p>') }));
    expect(Object.keys(fetched)).toContain('html');
    fetched.html = '<p>y</p>';
    expect(fetched.html).toBe('<p>y</p>');
  });
});
