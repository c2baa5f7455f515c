import { describe, expect, it } from 'vitest';
import type { Limits } from '../config.js';
import { clientAddress, clientNetwork, RateLimiter, type Admission, type Rejection } from './rate-limiter.js';

const LIMITS: Limits = {
  requestsPerMinute: 250,
  requestsPerSecond: 30,
  requestsInFlight: 4,
  keylessRequestsPerMinute: 60,
  cooldownAfterRejections: 30,
  cooldownMs: 60_000,
  endpointTimeoutMs: 20_000,
  exportsQueuedOrRunning: 5,
  exportMaxRows: 100_000,
  exportMaxBytes: 67_108_864,
  exportFlatMaxRows: 3_000_000,
  exportFlatMaxBytes: 536_870_912,
  exportMaxQueryParams: 32,
  exportBytesHeld: { basic: 1024 ** 3, pro: 4 * 1024 ** 3 },
  exportDiskFloorBytes: 1024 ** 3,
};

/** Small windows so every boundary is reachable in a few calls. */
const SMALL: Limits = {
  ...LIMITS,
  requestsPerMinute: 10,
  requestsPerSecond: 3,
  requestsInFlight: 2,
  keylessRequestsPerMinute: 3,
  cooldownAfterRejections: 3,
  cooldownMs: 30_000,
};

/** Admits and releases at once, so in-flight never limits; returns the admission. */
function hit(limiter: RateLimiter, account: string, now: number, consume = true): Admission {
  const admission = limiter.admit(account, now, consume);
  if (admission.admitted) admission.release();
  return admission;
}

function rejection(admission: Admission): Rejection {
  if (admission.admitted) throw new Error('expected a rejection, got an admission');
  return admission.rejection;
}

/** Spreads `count` admitted requests over whole seconds from `start`, `perSecond` per second. */
function fill(limiter: RateLimiter, account: string, start: number, count: number, perSecond: number): number {
  let t = start;
  for (let i = 0; i < count; i += 1) {
    t = start + Math.floor(i / perSecond) * 1000 + (i % perSecond);
    expect(hit(limiter, account, t).admitted).toBe(true);
  }
  return t;
}

describe('RateLimiter: rolling second (burst)', () => {
  it('admits 30 in a rolling second, then burst_limited until the oldest leaves the second', () => {
    const limiter = new RateLimiter(LIMITS);
    for (let i = 0; i < 30; i += 1) expect(hit(limiter, 'a', 1_000 + i * 10).admitted).toBe(true);
    // the 31st at t=1500: oldest entry is at 1000, so it leaves at 2000
    const r = rejection(hit(limiter, 'a', 1_500));
    expect(r.code).toBe('burst_limited');
    expect(r.retryAfterMs).toBe(500);
    expect(rejection(hit(limiter, 'a', 1_999)).retryAfterMs).toBe(1);
    // at exactly 2000 the entry of 1000 has left (an entry at t leaves at t + 1000)
    expect(hit(limiter, 'a', 2_000).admitted).toBe(true);
    // but the one of 1010 is still there, so the window is full again
    const again = rejection(hit(limiter, 'a', 2_005));
    expect(again.code).toBe('burst_limited');
    expect(again.retryAfterMs).toBe(5);
  });

  it('reports burstRemaining and burstReset', () => {
    const limiter = new RateLimiter(SMALL);
    hit(limiter, 'a', 10_000);
    hit(limiter, 'a', 10_100);
    let s = limiter.state('a', 10_200);
    expect(s.burstLimit).toBe(3);
    expect(s.burstRemaining).toBe(1);
    expect(s.burstReset).toBe(10_200);
    hit(limiter, 'a', 10_200);
    s = limiter.state('a', 10_300);
    expect(s.burstRemaining).toBe(0);
    expect(s.burstReset).toBe(11_000);
    expect(limiter.state('a', 11_000).burstRemaining).toBe(1);
    expect(limiter.state('a', 11_200).burstRemaining).toBe(3);
  });

  it('keeps accounts independent', () => {
    const limiter = new RateLimiter(SMALL);
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 5_000);
    expect(rejection(hit(limiter, 'a', 5_000)).code).toBe('burst_limited');
    expect(hit(limiter, 'b', 5_000).admitted).toBe(true);
  });
});

describe('RateLimiter: rolling minute', () => {
  it('admits 250 in a rolling minute, then rate_limited with retryAfterMs to the oldest expiry', () => {
    const limiter = new RateLimiter(LIMITS);
    // 25 a second for 10 seconds: never burst-limited
    const last = fill(limiter, 'a', 0, 250, 25);
    expect(last).toBe(9_024);
    expect(limiter.state('a', 10_000).remaining).toBe(0);
    const r = rejection(hit(limiter, 'a', 30_000));
    expect(r.code).toBe('rate_limited');
    // oldest entry at t=0 leaves at 60_000
    expect(r.retryAfterMs).toBe(30_000);
    expect(r.message).toMatch(/250/);
  });

  it('is a rolling window, not a fixed one: an entry at t leaves at exactly t + 60 000', () => {
    const limiter = new RateLimiter(SMALL);
    // 10 requests at t = 0, 1000, ..., 9000 (one a second, under the burst limit)
    for (let i = 0; i < 10; i += 1) expect(hit(limiter, 'a', i * 1000).admitted).toBe(true);
    expect(rejection(hit(limiter, 'a', 59_999)).retryAfterMs).toBe(1);
    expect(limiter.state('a', 59_999).remaining).toBe(0);
    // the first expires at 60 000 exactly: one slot, not a whole new minute
    expect(limiter.state('a', 60_000).remaining).toBe(1);
    expect(hit(limiter, 'a', 60_000).admitted).toBe(true);
    const r = rejection(hit(limiter, 'a', 60_500));
    expect(r.code).toBe('rate_limited');
    expect(r.retryAfterMs).toBe(500); // the one of t=1000 leaves at 61 000
    expect(hit(limiter, 'a', 61_000).admitted).toBe(true);
    // a fixed-window limiter would have given all 10 back at 60 000
    expect(limiter.state('a', 61_000).remaining).toBe(0);
    expect(limiter.state('a', 69_000).remaining).toBe(8);
  });

  it('state(): remaining counts down, reset is now while some remain, else the oldest expiry', () => {
    const limiter = new RateLimiter(LIMITS);
    const fresh = limiter.state('a', 1_000);
    expect(fresh).toEqual({
      limit: 250,
      remaining: 250,
      reset: 1_000,
      burstLimit: 30,
      burstRemaining: 30,
      burstReset: 1_000,
      inFlight: 0,
      cooldownUntil: null,
    });
    hit(limiter, 'a', 1_000);
    hit(limiter, 'a', 1_001);
    const after = limiter.state('a', 1_002);
    expect(after.remaining).toBe(248);
    expect(after.reset).toBe(1_002);
    expect(after.burstRemaining).toBe(28);

    const small = new RateLimiter(SMALL);
    for (let i = 0; i < 10; i += 1) hit(small, 'a', 2_000 + i * 1000);
    const full = small.state('a', 15_000);
    expect(full.remaining).toBe(0);
    expect(full.reset).toBe(62_000);
  });

  it('rejected requests do not consume the windows', () => {
    const limiter = new RateLimiter(SMALL);
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 1_000);
    const before = limiter.state('a', 1_500);
    expect(before.remaining).toBe(7);
    expect(rejection(hit(limiter, 'a', 1_500)).code).toBe('burst_limited');
    expect(rejection(hit(limiter, 'a', 1_600)).code).toBe('burst_limited');
    const after = limiter.state('a', 1_600);
    expect(after.remaining).toBe(7);
    expect(after.burstRemaining).toBe(0);
    // once the second rolls on, the full burst is back: the rejections took nothing
    expect(limiter.state('a', 2_000).burstRemaining).toBe(3);
    for (let i = 0; i < 3; i += 1) expect(hit(limiter, 'a', 2_000).admitted).toBe(true);
  });
});

describe('RateLimiter: requests in flight', () => {
  it('rejects the fifth simultaneous request with rate_limited and retryAfterMs 1000, admits again after a release', () => {
    const limiter = new RateLimiter(LIMITS);
    const held: (() => void)[] = [];
    for (let i = 0; i < 4; i += 1) {
      const a = limiter.admit('a', 1_000 + i);
      if (!a.admitted) throw new Error('should be admitted');
      held.push(a.release);
    }
    expect(limiter.state('a', 1_010).inFlight).toBe(4);
    const r = rejection(limiter.admit('a', 1_010));
    expect(r.code).toBe('rate_limited');
    expect(r.retryAfterMs).toBe(1000);
    expect(r.message).toMatch(/4/);
    // the rejected fifth consumed nothing
    expect(limiter.state('a', 1_010).remaining).toBe(246);
    held[0]?.();
    expect(limiter.state('a', 1_011).inFlight).toBe(3);
    const fifth = limiter.admit('a', 1_011);
    expect(fifth.admitted).toBe(true);
    expect(limiter.state('a', 1_011).inFlight).toBe(4);
  });

  it('release is idempotent', () => {
    const limiter = new RateLimiter(LIMITS);
    const first = limiter.admit('a', 0);
    const second = limiter.admit('a', 1);
    if (!first.admitted || !second.admitted) throw new Error('should be admitted');
    first.release();
    first.release();
    first.release();
    expect(limiter.state('a', 2).inFlight).toBe(1);
    second.release();
    expect(limiter.state('a', 3).inFlight).toBe(0);
    // a repeated release must not open extra slots: still only 4 at once
    for (let i = 0; i < 4; i += 1) expect(limiter.admit('a', 10 + i).admitted).toBe(true);
    expect(rejection(limiter.admit('a', 20)).code).toBe('rate_limited');
  });

  it('consume=false holds an in-flight slot but spends nothing in the windows', () => {
    const limiter = new RateLimiter(SMALL);
    const probe = limiter.admit('a', 1_000, false);
    if (!probe.admitted) throw new Error('should be admitted');
    const s = limiter.state('a', 1_000);
    expect(s.inFlight).toBe(1);
    expect(s.remaining).toBe(10);
    expect(s.burstRemaining).toBe(3);
    const second = limiter.admit('a', 1_000, false);
    expect(second.admitted).toBe(true);
    // both in-flight slots (SMALL: 2) are held now, so even a non-consuming request is refused
    const third = rejection(limiter.admit('a', 1_000, false));
    expect(third.code).toBe('rate_limited');
    expect(third.retryAfterMs).toBe(1000);
    probe.release();
    expect(limiter.state('a', 1_001).inFlight).toBe(1);
  });

  it('consume=false is admitted even when the minute and second windows are spent', () => {
    const limiter = new RateLimiter(SMALL);
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 1_000);
    expect(rejection(hit(limiter, 'a', 1_000)).code).toBe('burst_limited');
    const probe = hit(limiter, 'a', 1_000, false);
    expect(probe.admitted).toBe(true);
    expect(limiter.state('a', 1_000).burstRemaining).toBe(0);
    expect(limiter.state('a', 1_000).remaining).toBe(7);
  });
});

describe('RateLimiter: requests the service could not serve', () => {
  it('gives back the window places of a request released unserved (503 upstream_busy, 504), not of one served', () => {
    const limiter = new RateLimiter({ ...SMALL, requestsInFlight: 100 });
    const t = 1_000_000;
    for (let i = 0; i < 3; i += 1) {
      const admission = limiter.admit('acct', t + i);
      if (admission.admitted) admission.release(true);
    }
    expect(limiter.state('acct', t + 3)).toMatchObject({ remaining: 10, burstRemaining: 3 });
    const served = limiter.admit('acct', t + 3);
    if (served.admitted) served.release(false);
    expect(limiter.state('acct', t + 4)).toMatchObject({ remaining: 9, burstRemaining: 2 });
    // Given back twice, taken out once.
    const twice = limiter.admit('acct', t + 3);
    if (twice.admitted) {
      twice.release(true);
      twice.release(true);
    }
    expect(limiter.state('acct', t + 4)).toMatchObject({ remaining: 9, burstRemaining: 2, inFlight: 0 });
  });
});

describe('RateLimiter: cooldown', () => {
  it('after cooldownAfterRejections rejections within a minute, even a fitting request gets cooldown', () => {
    const limiter = new RateLimiter(LIMITS);
    for (let i = 0; i < 30; i += 1) hit(limiter, 'a', 1_000);
    // 29 rejections: not yet cooling down
    for (let i = 0; i < 29; i += 1) expect(rejection(hit(limiter, 'a', 1_100 + i)).code).toBe('burst_limited');
    expect(limiter.state('a', 1_200).cooldownUntil).toBeNull();
    // the 30th rejection starts the cooldown and says so
    const starting = rejection(hit(limiter, 'a', 1_500));
    expect(starting.code).toBe('cooldown');
    expect(starting.retryAfterMs).toBe(60_000);
    expect(limiter.state('a', 1_500).cooldownUntil).toBe(61_500);

    // at 5 000 the burst window is empty and the minute has 220 left: it would fit, yet cooldown
    const before = limiter.state('a', 5_000);
    expect(before.remaining).toBe(220);
    expect(before.burstRemaining).toBe(30);
    const r = rejection(hit(limiter, 'a', 5_000));
    expect(r.code).toBe('cooldown');
    expect(r.retryAfterMs).toBe(56_500); // cooldownUntil (61 500) - now, as it stood when the request came
    expect(r.message).toMatch(/cool/i);
    // the cooldown rejection consumed nothing either
    expect(limiter.state('a', 5_000).remaining).toBe(220);
  });

  it('cooldown ends at cooldownUntil and is reported by state() only while active', () => {
    const limiter = new RateLimiter(SMALL);
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 0);
    expect(rejection(hit(limiter, 'a', 100)).code).toBe('burst_limited');
    expect(rejection(hit(limiter, 'a', 101)).code).toBe('burst_limited');
    expect(rejection(hit(limiter, 'a', 102)).code).toBe('cooldown');
    expect(limiter.state('a', 102).cooldownUntil).toBe(30_102);
    expect(limiter.state('a', 30_101).cooldownUntil).toBe(30_102);
    expect(limiter.state('a', 30_102).cooldownUntil).toBeNull();
    expect(hit(limiter, 'a', 30_102).admitted).toBe(true);
  });

  it('a cooldown rejection once the rejections have left the minute gives retryAfterMs = remaining cooldown', () => {
    // a cooldown longer than the rejection window, so the request at 70 000 is the only rejection in its minute
    const limiter = new RateLimiter({ ...SMALL, cooldownMs: 120_000 });
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 0);
    for (let i = 0; i < 3; i += 1) rejection(hit(limiter, 'a', 100 + i));
    expect(limiter.state('a', 70_000).cooldownUntil).toBe(120_102);
    const r = rejection(hit(limiter, 'a', 70_000));
    expect(r.code).toBe('cooldown');
    expect(r.retryAfterMs).toBe(50_102);
    expect(limiter.state('a', 70_000).cooldownUntil).toBe(120_102);
    expect(rejection(hit(limiter, 'a', 120_101)).retryAfterMs).toBe(1);
    expect(hit(limiter, 'a', 120_102).admitted).toBe(true);
  });

  // A rejection that starts the cooldown says so, and requests during it do not extend it: a client
  // that honours Retry-After gets back in.
  it('a cooldown rejection reports the cooldown that the same rejection leaves in force', () => {
    const limiter = new RateLimiter(SMALL); // 3 rejections -> 30 s cooldown
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 0);
    for (let i = 0; i < 3; i += 1) rejection(hit(limiter, 'a', 1 + i)); // cooldown until 30 003
    const r = rejection(hit(limiter, 'a', 1_000));
    expect(r.code).toBe('cooldown');
    // told 29 003 ms (until 30 003), but this rejection moved cooldownUntil to 31 000
    expect(1_000 + r.retryAfterMs).toBe(limiter.state('a', 1_000).cooldownUntil);
  });

  it('a client that waits exactly the retryAfterMs it is given gets back in', () => {
    const limiter = new RateLimiter(SMALL);
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 0);
    // three quick retries inside the second (the 429s that start the cooldown) ...
    rejection(hit(limiter, 'a', 1));
    rejection(hit(limiter, 'a', 2));
    const last = rejection(hit(limiter, 'a', 3));
    // ... then the client behaves: it always waits exactly what it was told
    let t = 3 + last.retryAfterMs;
    let admittedAt: number | null = null;
    for (let attempt = 0; attempt < 50 && admittedAt === null; attempt += 1) {
      const a = hit(limiter, 'a', t);
      if (a.admitted) admittedAt = t;
      else t += a.rejection.retryAfterMs;
    }
    // in fact it is cooled down forever: each obedient retry lands in the extended cooldown
    expect(admittedAt).not.toBeNull();
  });

  it('rejections spread over more than a minute do not start a cooldown', () => {
    const limiter = new RateLimiter(SMALL);
    // one burst rejection every 40 s: at most 2 within any rolling minute
    for (let k = 0; k < 4; k += 1) {
      const t = k * 40_000;
      for (let i = 0; i < 3; i += 1) expect(hit(limiter, 'a', t).admitted).toBe(true);
      expect(rejection(hit(limiter, 'a', t)).code).toBe('burst_limited');
    }
    expect(limiter.state('a', 120_001).cooldownUntil).toBeNull();
  });

  it('no cooldown when cooldownMs is 0', () => {
    const limiter = new RateLimiter({ ...SMALL, cooldownMs: 0 });
    for (let i = 0; i < 3; i += 1) hit(limiter, 'a', 0);
    for (let i = 0; i < 10; i += 1) expect(rejection(hit(limiter, 'a', 10 + i)).code).toBe('burst_limited');
    expect(limiter.state('a', 20).cooldownUntil).toBeNull();
    expect(hit(limiter, 'a', 1_000).admitted).toBe(true);
  });
});

describe('RateLimiter: keyless budget per client network', () => {
  it('admits 60 per rolling minute per network, then rate_limited; networks are independent', () => {
    const limiter = new RateLimiter(LIMITS);
    for (let i = 0; i < 60; i += 1) {
      const a = limiter.admitKeyless('198.51.100.0/24', 1_000 + i * 100);
      if (!a.admitted) throw new Error(`request ${i} should be admitted`);
      expect(a.remaining).toBe(59 - i);
      expect(a.reset).toBe(i < 59 ? 1_000 + i * 100 : 61_000);
    }
    const r = limiter.admitKeyless('198.51.100.0/24', 10_000);
    if (r.admitted) throw new Error('61st should be rejected');
    expect(r.rejection.code).toBe('rate_limited');
    expect(r.rejection.retryAfterMs).toBe(51_000);
    expect(r.rejection.message).toMatch(/60/);

    expect(limiter.admitKeyless('203.0.113.0/24', 10_000).admitted).toBe(true);
    // the rejection did not consume: exactly one slot comes back when the oldest expires
    expect(limiter.admitKeyless('198.51.100.0/24', 61_000).admitted).toBe(true);
    expect(limiter.admitKeyless('198.51.100.0/24', 61_000).admitted).toBe(false);
  });

  it('keyless budget is separate from account windows', () => {
    const limiter = new RateLimiter(SMALL);
    for (let i = 0; i < 3; i += 1) expect(limiter.admitKeyless('n', i).admitted).toBe(true);
    expect(limiter.admitKeyless('n', 10).admitted).toBe(false);
    expect(hit(limiter, 'n', 10).admitted).toBe(true);
    expect(limiter.state('n', 10).remaining).toBe(9);
  });
});

describe('clientNetwork', () => {
  it('maps IPv4 to its /24', () => {
    expect(clientNetwork('192.0.2.77')).toBe('192.0.2.0/24');
    expect(clientNetwork('10.1.2.3')).toBe('10.1.2.0/24');
  });

  it('gives two hosts of one /24 the same network and neighbouring /24s different ones', () => {
    expect(clientNetwork('198.51.100.1')).toBe(clientNetwork('198.51.100.254'));
    expect(clientNetwork('198.51.100.1')).not.toBe(clientNetwork('198.51.101.1'));
  });

  it('maps IPv4-mapped IPv6 to the same /24 as the IPv4 address', () => {
    expect(clientNetwork('::ffff:1.2.3.4')).toBe('1.2.3.0/24');
    expect(clientNetwork('::FFFF:1.2.3.200')).toBe(clientNetwork('1.2.3.4'));
  });

  it('maps IPv6 to its /56', () => {
    expect(clientNetwork('2001:db8:abcd:12ff::1')).toBe('2001:db8:abcd:1200::/56');
    expect(clientNetwork('2001:db8:abcd:1200:1:2:3:4')).toBe('2001:db8:abcd:1200::/56');
    expect(clientNetwork('2001:db8:abcd:12ff::1')).toBe(clientNetwork('2001:db8:abcd:1234::99'));
    expect(clientNetwork('2001:db8:abcd:12ff::1')).not.toBe(clientNetwork('2001:db8:abcd:1300::1'));
  });

  it('expands :: before taking the /56', () => {
    // 2001:db8::1 is 2001:db8:0:0:0:0:0:1
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/56');
    expect(clientNetwork('2001:db8::1')).toBe(clientNetwork('2001:0db8:0000:0000:0000:0000:0000:0001'));
    expect(clientNetwork('2001:db8::1')).toBe(clientNetwork('2001:db8:0:ff::'));
    expect(clientNetwork('2001:db8::1')).not.toBe(clientNetwork('2001:db8:0:100::'));
    // the tail after :: lands in the last groups, not the first ones
    expect(clientNetwork('::1')).toBe('0:0:0:0::/56');
    expect(clientNetwork('fe80::abcd:1234')).toBe('fe80:0:0:0::/56');
    expect(clientNetwork('2001:DB8:ABCD:12FF::1')).toBe('2001:db8:abcd:1200::/56');
  });
});

describe('clientAddress', () => {
  it('with 0 trusted hops uses the socket peer and ignores X-Forwarded-For', () => {
    expect(clientAddress('10.0.0.1', '203.0.113.9', 0)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', undefined, 0)).toBe('10.0.0.1');
    expect(clientAddress(undefined, '203.0.113.9', 0)).toBe('unknown');
  });

  it('with 1 trusted hop takes the right-most X-Forwarded-For entry', () => {
    expect(clientAddress('10.0.0.1', '6.6.6.6, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.1', '203.0.113.9', 1)).toBe('203.0.113.9');
  });

  it('with 2 trusted hops takes the next entry to the left', () => {
    expect(clientAddress('10.0.0.1', '6.6.6.6,203.0.113.9, 10.0.0.2', 2)).toBe('203.0.113.9');
  });

  it('clamps to the left-most entry when the chain is shorter than the trusted hops', () => {
    expect(clientAddress('10.0.0.1', '203.0.113.9', 2)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.1', '203.0.113.9, 10.0.0.2', 5)).toBe('203.0.113.9');
  });

  it('falls back to the peer when the header is missing or empty', () => {
    expect(clientAddress('10.0.0.1', undefined, 1)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', '', 1)).toBe('10.0.0.1');
    expect(clientAddress('10.0.0.1', ' , ', 1)).toBe('10.0.0.1');
  });
});

describe('clientNetwork: forwarded forms', () => {
  it('ignores a port and reads hex IPv4-mapped addresses', () => {
    expect(clientNetwork('1.2.3.4:5678')).toBe('1.2.3.0/24');
    expect(clientNetwork('[2001:db8:abcd:12ff::1]:443')).toBe('2001:db8:abcd:1200::/56');
    expect(clientNetwork('::ffff:102:304')).toBe('1.2.3.0/24');
  });
});
