import { describe, expect, it } from 'vitest';
import {
  conditionCodeFromOpra,
  conditionTraitMask,
  conditionTraits,
  EXCHANGE_NAMES,
  exchangeCodeByName,
  exchangeCodeFromOpraLetter,
  exchangeName,
  NO_TRAITS,
  OPTION_VENUES,
  REGULAR_SALE_CONDITION,
  SALE_CONDITIONS,
  TraitBit,
  type ConditionTraits,
} from './opra.js';

describe('exchanges', () => {
  it('lists the 17 short names in the specification order', () => {
    expect(EXCHANGE_NAMES).toEqual([
      'nom',
      'amex',
      'cboe',
      'ise',
      'arca',
      'phlx',
      'box',
      'mrcy',
      'gmni',
      'c2',
      'miax',
      'emld',
      'bx',
      'bzx',
      'edgx',
      'perl',
      'memx',
    ]);
  });

  it('maps each short name to its Massive options exchange id and OPRA participant', () => {
    const expected: Record<string, [number, string]> = {
      amex: [300, 'A'],
      box: [301, 'B'],
      cboe: [302, 'C'],
      emld: [303, 'D'],
      edgx: [304, 'E'],
      gmni: [307, 'H'],
      ise: [308, 'I'],
      mrcy: [309, 'J'],
      miax: [312, 'M'],
      arca: [313, 'N'],
      perl: [315, 'P'],
      nom: [316, 'Q'],
      bx: [319, 'T'],
      memx: [320, 'U'],
      c2: [322, 'W'],
      phlx: [323, 'X'],
      bzx: [325, 'Z'],
    };
    for (const name of EXCHANGE_NAMES) {
      const [code, letter] = expected[name] as [number, string];
      expect(exchangeCodeByName[name]).toBe(code);
      expect(exchangeName(code)).toBe(name);
      expect(exchangeCodeFromOpraLetter(letter)).toBe(code);
    }
    expect(Object.keys(exchangeCodeByName)).toHaveLength(17);
  });

  it('numbers venues 300 + the OPRA letter offset, as Massive does', () => {
    for (const v of OPTION_VENUES) {
      expect(v.exchangeCode).toBe(300 + v.opraParticipant.charCodeAt(0) - 'A'.charCodeAt(0));
    }
  });

  it('reports venues without a short name as unmapped_<code>', () => {
    expect(exchangeName(318)).toBe('unmapped_318'); // MIAX Sapphire
    expect(exchangeName(314)).toBe('unmapped_314'); // OPRA itself
    expect(exchangeName(305)).toBe('unmapped_305');
    expect(exchangeName(999)).toBe('unmapped_999');
    expect(exchangeName(4)).toBe('unmapped_4');
    expect(exchangeName(-1)).toBe('unmapped_-1');
  });

  it('maps the OPRA letters of unnamed venues and rejects unknown letters', () => {
    expect(exchangeCodeFromOpraLetter('S')).toBe(318);
    expect(exchangeCodeFromOpraLetter('O')).toBe(314);
    expect(exchangeCodeFromOpraLetter('K')).toBeNull();
    expect(exchangeCodeFromOpraLetter('a')).toBeNull();
    expect(exchangeCodeFromOpraLetter('')).toBeNull();
  });
});

const ALL_CODES = [
  201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 219, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242,
  243, 244, 245, 246, 247, 248,
];

function codesWith(trait: keyof ConditionTraits): number[] {
  return ALL_CODES.filter((c) => conditionTraits(c)[trait]);
}

describe('sale conditions', () => {
  it('publishes the 33 Massive options condition ids', () => {
    expect(SALE_CONDITIONS.map((c) => c.code)).toEqual(ALL_CODES);
    expect(SALE_CONDITIONS.find((c) => c.code === 219)?.name).toBe('Intermarket Sweep Order');
    expect(SALE_CONDITIONS.find((c) => c.code === 248)?.name).toBe('Extended Hours Trade');
  });

  it('maps OPRA message types A..J, S and a..v onto 201..210, 219 and 227..248', () => {
    const letters = 'ABCDEFGHIJ'.split('');
    letters.forEach((l, i) => expect(conditionCodeFromOpra(l)).toBe(201 + i));
    expect(conditionCodeFromOpra('S')).toBe(219);
    'abcdefghijklmnopqrstuv'.split('').forEach((l, i) => expect(conditionCodeFromOpra(l)).toBe(227 + i));
  });

  it('accepts four-letter mnemonics, both spellings of the single-leg cross ISO', () => {
    expect(conditionCodeFromOpra('ISOI')).toBe(219);
    expect(conditionCodeFromOpra('SLAN')).toBe(227);
    expect(conditionCodeFromOpra('SCLI')).toBe(230);
    expect(conditionCodeFromOpra('SLCI')).toBe(230);
    expect(conditionCodeFromOpra('EXHT')).toBe(248);
    expect(conditionCodeFromOpra('CANC')).toBe(201);
  });

  it('treats a blank message type as a regular sale and rejects unknown ones', () => {
    expect(conditionCodeFromOpra(' ')).toBe(REGULAR_SALE_CONDITION);
    expect(conditionCodeFromOpra('')).toBe(REGULAR_SALE_CONDITION);
    expect(REGULAR_SALE_CONDITION).toBe(0);
    expect(conditionCodeFromOpra('K')).toBeNull();
    expect(conditionCodeFromOpra('w')).toBeNull();
    // OPRA's message type is one letter: a longer string is no message type.
    expect(conditionCodeFromOpra('ISO')).toBeNull();
  });

  it('gives each trait to exactly the conditions that carry it', () => {
    expect(codesWith('cancel')).toEqual([201, 203, 205, 207]);
    expect(codesWith('late')).toEqual([202, 204, 206, 208]);
    expect(codesWith('opening')).toEqual([205, 206, 208, 210]);
    expect(codesWith('iso')).toEqual([219, 228, 230]);
    expect(codesWith('auction')).toEqual([227, 228, 233, 237, 238, 244]);
    expect(codesWith('cross')).toEqual([229, 230, 234, 241, 247]);
    expect(codesWith('floor')).toEqual([231, 235, 239, 242, 245, 246]);
    expect(codesWith('complex')).toEqual([232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247]);
    expect(codesWith('tied')).toEqual([237, 240, 241, 242, 243, 244, 245]);
    expect(codesWith('implied')).toEqual([232, 233, 234, 235, 237, 240, 241, 242, 246, 247]);
    expect(codesWith('extHours')).toEqual([248]);
  });

  it('leaves plain electronic executions without traits', () => {
    expect(conditionTraits(209)).toEqual(NO_TRAITS);
  });

  it('gives unknown codes no traits', () => {
    for (const code of [REGULAR_SALE_CONDITION, 200, 211, 218, 220, 226, 249, 999, -5, NaN, 1.5]) {
      expect(conditionTraits(code)).toEqual(NO_TRAITS);
      expect(conditionTraitMask(code)).toBe(0);
    }
    expect(Object.values(NO_TRAITS).every((v) => v === false)).toBe(true);
  });

  it('keeps the bit mask in step with the traits', () => {
    for (const code of ALL_CODES) {
      const traits = conditionTraits(code);
      const mask = conditionTraitMask(code);
      for (const [name, bit] of Object.entries(TraitBit)) {
        expect((mask & bit) !== 0).toBe(traits[name as keyof ConditionTraits]);
      }
    }
  });
});
