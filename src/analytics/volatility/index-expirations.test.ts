import { describe, expect, it } from 'vitest';
import { indexExpirations } from './index-expirations.js';

const listed = [
  // Week of 2026-11-16: dailies Monday to Friday.
  ...['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'].map((d) => ({ root: 'SPXW', dateOfExpiry: d })),
  // Thanksgiving week: Thursday 26 is a holiday, Friday 27 trades (early close).
  ...['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27'].map((d) => ({ root: 'SPXW', dateOfExpiry: d })),
  // The third Friday of December: the AM standard and the PM weekly.
  { root: 'SPX', dateOfExpiry: '2026-12-18' },
  { root: 'SPXW', dateOfExpiry: '2026-12-18' },
  { root: 'SPXW', dateOfExpiry: '2026-12-16' },
  // Christmas Friday is a holiday: the week's weekly expires on Thursday 24.
  { root: 'SPXW', dateOfExpiry: '2026-12-24' },
  { root: 'SPXW', dateOfExpiry: '2026-12-22' },
];

describe('indexExpirations', () => {
  it('counts for 30d and 9d the last expiration of each week, the AM standard where listed', () => {
    const chosen = indexExpirations(listed, '30d');
    expect(chosen.map((e) => `${e.root} ${e.dateOfExpiry}`)).toEqual([
      'SPXW 2026-11-20',
      'SPXW 2026-11-27',
      'SPX 2026-12-18',
      'SPXW 2026-12-24',
    ]);
    // AM: the 09:30 ET open (EST, UTC−5); PM on 2026-11-27, an early close: 13:00 ET.
    expect(chosen[2]!.settlement).toBe(Date.parse('2026-12-18T14:30:00Z'));
    expect(chosen[1]!.settlement).toBe(Date.parse('2026-11-27T18:00:00Z'));
    expect(indexExpirations(listed, '9d')).toEqual(chosen);
  });

  it('counts for 1d every date, the PM root where two are listed', () => {
    const chosen = indexExpirations(listed, '1d');
    expect(chosen).toHaveLength(new Set(listed.map((e) => e.dateOfExpiry)).size);
    expect(chosen.find((e) => e.dateOfExpiry === '2026-12-18')).toMatchObject({
      root: 'SPXW',
      settlement: Date.parse('2026-12-18T21:00:00Z'),
    });
  });

  it('uses a restricted root alone', () => {
    const pm = listed.filter((e) => e.root === 'SPXW');
    expect(indexExpirations(pm, '30d').map((e) => e.root)).toEqual(['SPXW', 'SPXW', 'SPXW', 'SPXW']);
  });
});
