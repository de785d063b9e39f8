import { describe, expect, it } from 'vitest';
import { binaryReason, isHtmlType, isUnknownType, magicNumber, mimeEssence, sniffUntyped } from '../../../companion/fetch/content-sniff.ts';

const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('content types', () => {
  it('reduces a header to its lower-case essence', () => {
    expect(mimeEssence('Text/HTML; charset=GBK')).toBe('text/html');
    expect(mimeEssence(undefined)).toBe('');
  });

  it('knows the two HTML types and the types that say nothing', () => {
    expect(isHtmlType('text/html') && isHtmlType('application/xhtml+xml')).toBe(true);
    expect(isHtmlType('text/plain') || isHtmlType('application/xml')).toBe(false);
    expect(isUnknownType('') && isUnknownType('unknown/unknown')).toBe(true);
    expect(isUnknownType('application/octet-stream')).toBe(false);
  });
});

describe('sniffing', () => {
  it.each([
    ['PNG', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]],
    ['GIF', bytes('GIF89a')],
    ['JPEG', [0xff, 0xd8, 0xff, 0xe0]],
    ['PDF', bytes('%PDF-1.7')],
    ['ZIP', bytes('PK', [3, 4])],
    ['gzip', [0x1f, 0x8b, 8]],
  ])('recognises %s by its magic number', (name, head) => {
    expect(magicNumber(Buffer.from(head as number[]))).toBe(name);
    expect(sniffUntyped(Buffer.from(head as number[]))).toBe('binary');
  });

  it('calls NUL bytes binary, except in UTF-16 with a BOM', () => {
    expect(binaryReason(bytes('<html>', [0, 0]))).toBe('NUL bytes in the first 1 KiB');
    expect(binaryReason(Buffer.from('\ufeff<html>', 'utf16le'))).toBeUndefined();
    expect(binaryReason(bytes('x'.repeat(2000), [0]))).toBeUndefined(); // past the first KiB
  });

  it.each([
    ['<!DOCTYPE html><html>', 'html'],
    ['  \n<html lang="zh">', 'html'],
    ['\xef\xbb\xbf<!doctype html>', 'html'],
    ['<!-- generated --><div>', 'html'],
    ['<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">', 'html'],
    ['<p>para', 'html'],
    ['plain words about <html> tags', 'text'],
    ['{"json": true}', 'text'],
    ['<rss version="2.0">', 'text'],
  ])('sniffs %j as %s', (text, kind) => {
    expect(sniffUntyped(bytes(text))).toBe(kind);
  });
});
