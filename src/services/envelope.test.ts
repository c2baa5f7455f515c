import { describe, expect, it } from 'vitest';
import { envelopeOf, envelopeText, metaOf, utf8Bytes } from './envelope.js';

describe('the envelope', () => {
  const pagination = { count: 1, has_more: false, limit: 100, next_cursor_id: null, next_url: null };

  it('says when, which request, from where, and complete unless a service adds coverage', () => {
    expect(metaOf({}, 1_000, 'req_a')).toEqual({
      as_of: 1_000,
      coverage: { complete: true },
      delay_ms: 0,
      delayed: false,
      request_id: 'req_a',
      source: 'derived',
    });
    expect(metaOf({ source: 'opra', coverage: { scan_complete: false } }, 5, 'req_b')).toMatchObject({
      source: 'opra',
      coverage: { complete: true, scan_complete: false },
    });
  });

  it('writes data given as text exactly as the object form would serialise', () => {
    const data = [
      { id: 'x', price: 1.25 },
      { id: 'y', price: null },
    ];
    const result = { data: data as never, dataJson: JSON.stringify(data), pagination };
    const meta = metaOf({ source: 'opra' }, 7, 'req_c');
    expect(JSON.parse(envelopeText(result, meta))).toEqual(envelopeOf(result, meta));
    expect(envelopeText(result, meta)).toBe(JSON.stringify(envelopeOf(result, meta)));
  });

  it('has no pagination block when the result has none', () => {
    expect(envelopeOf({ data: { a: 1 } }, { request_id: 'req_d' })).toEqual({ data: { a: 1 }, meta: { request_id: 'req_d' } });
  });
});

describe('utf8Bytes', () => {
  it("gives a text's UTF-8 bytes, ASCII or not (Latin-1 letters, characters outside the BMP, a lone byte at 0x7f)", () => {
    for (const text of [
      '{"a":1}',
      '',
      'x\u007f',
      '{"name":"Société Générale"}',
      'ÿ',
      '{"e":"\u{1F4C8}"}',
      `[${'"SPXW",'.repeat(1000)}"é"]`,
    ]) {
      const bytes = utf8Bytes(text);
      expect(bytes.equals(new TextEncoder().encode(text)), text.slice(0, 40)).toBe(true);
      expect(bytes.toString('utf8')).toBe(text);
    }
  });
});
