import { describe, expect, it } from 'vitest';
import { clientFrame, countMessagePrints, DATA, FrameReader, samplePrintsMessage, serverFrame, type ReadMessage } from './frames.js';

/** The contract's OptionPrint fields start with ask (the counters rely on it) and include flags. */
const FIELDS = ['ask', 'bid', 'condition_code', 'flags', 'id', 'premium', 'timestamp'];

function read(
  compact: boolean,
  stream: Buffer,
  cuts: readonly number[],
): { messages: ReadMessage[]; controls: [number, string][]; failed: string[] } {
  const messages: ReadMessage[] = [];
  const controls: [number, string][] = [];
  const failed: string[] = [];
  const reader = new FrameReader(compact, {
    message: (m) => messages.push({ ...m }),
    control: (opcode, payload) => controls.push([opcode, payload.toString('utf8')]),
    failed: (reason) => failed.push(reason),
  });
  let from = 0;
  for (const cut of [...cuts, stream.length]) {
    // Each piece in a buffer of its own, with stale bytes after it (the reused read buffer).
    const piece = Buffer.concat([stream.subarray(from, cut), Buffer.from('{"ask":[1')]);
    reader.feed(piece, 0, cut - from, 0);
    from = cut;
  }
  return { messages, controls, failed };
}

describe('FrameReader', () => {
  for (const compact of [false, true]) {
    it(`reads ${compact ? 'compact' : 'full'} prints messages of every frame length, split at every byte`, () => {
      const small = samplePrintsMessage(1, FIELDS, 0, compact);
      const medium = samplePrintsMessage(2, FIELDS, 3, compact);
      const large = samplePrintsMessage(3, FIELDS, 2000, compact);
      expect(small.length).toBeLessThan(65_536);
      expect(large.length).toBeGreaterThan(65_536);
      const subscribed = Buffer.from('{"seq":4,"type":"subscribed","subscription":"s1"}');
      const stream = Buffer.concat([
        serverFrame(1, small),
        serverFrame(9, Buffer.from('hb')),
        serverFrame(1, medium),
        serverFrame(1, large),
        serverFrame(1, subscribed),
      ]);
      const expected = [small, medium, large].map((raw) => {
        const data = (JSON.parse(raw.toString('utf8')) as { data: unknown[] }).data.length;
        expect(countMessagePrints(raw, raw.indexOf(DATA), compact)).toBe(data);
        return data;
      });
      expect(expected).toEqual([0, 3, 2000]);
      const whole = read(compact, stream, []);
      expect(whole.failed).toEqual([]);
      expect(whole.messages.map((m) => [m.seq, m.type, m.prints, m.data])).toEqual([
        [1, 'prints', 0, true],
        [2, 'prints', 3, true],
        [3, 'prints', 2000, true],
        [4, 'subscribed', 0, false],
      ]);
      expect(whole.messages[2]?.loadedAt).toBe(1_763_650_000_003);
      expect(whole.controls).toEqual([[9, 'hb']]);
      // Every single cut in the first 2,000 bytes (headers, heads, the first prints), then every 997th.
      const head = serverFrame(1, small).length + 4 + serverFrame(1, medium).length + 2_000;
      for (let cut = 1; cut < stream.length; cut += cut < head ? 1 : 997) expect(read(compact, stream, [cut])).toEqual(whole);
      // In pieces of 1 to 7 bytes throughout.
      const cuts: number[] = [];
      for (let at = 0, k = 0; at < stream.length; k += 1) cuts.push((at += 1 + (k % 7)));
      expect(
        read(
          compact,
          stream,
          cuts.filter((c) => c < stream.length),
        ),
      ).toEqual(whole);
    });
  }

  it('stops at a fragmented frame or a head that never ends', () => {
    const fragment = Buffer.from([0x01, 0x02, 0x7b, 0x7d]);
    expect(read(false, fragment, []).failed).toEqual(['a fragmented, masked or compressed frame']);
    const endless = serverFrame(1, Buffer.from(`{"seq":1,"type":"x","pad":"${'a'.repeat(5000)}"}`));
    expect(read(false, endless, []).failed).toEqual(['a message head longer than 4096 bytes']);
  });

  it('writes client frames masked (RFC 6455 5.3), in each length encoding; a reader of server frames refuses them', () => {
    for (const size of [5, 125, 126, 65_535, 65_536]) {
      const payload = Buffer.alloc(size, 'ab');
      const frame = clientFrame(1, payload);
      const lengthBytes = size < 126 ? 0 : size < 65_536 ? 2 : 8;
      expect(frame[0]).toBe(0x81);
      expect((frame[1] ?? 0) & 0x80).toBe(0x80);
      const length =
        lengthBytes === 0 ? (frame[1] ?? 0) & 0x7f : lengthBytes === 2 ? frame.readUInt16BE(2) : Number(frame.readBigUInt64BE(2));
      expect(length).toBe(size);
      const mask = frame.subarray(2 + lengthBytes, 6 + lengthBytes);
      const unmasked = Buffer.from(frame.subarray(6 + lengthBytes).map((b, i) => b ^ (mask[i % 4] ?? 0)));
      expect(unmasked.equals(payload)).toBe(true);
    }
    expect(read(false, clientFrame(1, Buffer.from('{}')), []).failed).toEqual(['a fragmented, masked or compressed frame']);
  });
});
