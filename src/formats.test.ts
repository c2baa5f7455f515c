import { describe, expect, it } from 'vitest';
import { ECHO_MAX, echoed, numericTextProblem, numericTypeOf, numericValueProblem } from './formats.js';

describe('numericTextProblem', () => {
  it('accepts an integer in plain decimal digits, a minus sign allowed, up to the safe integers', () => {
    for (const text of ['0', '7', '-3', '007', '500', '4102444800000', '9007199254740991'])
      expect(numericTextProblem('integer', text)).toBeNull();
  });

  it('refuses every other integer text, naming the form or the range', () => {
    for (const text of [
      '',
      ' 5',
      '5 ',
      '+5',
      '0x10',
      '0b11',
      '0o7',
      '1e2',
      '1E2',
      '1.0',
      '1.5',
      '.5',
      '5.',
      'NaN',
      'Infinity',
      '-Infinity',
      '1_000',
      '١٢',
    ]) {
      expect([text, numericTextProblem('integer', text)]).toEqual([text, 'must be an integer in plain decimal digits']);
    }
    for (const text of ['9007199254740993', '-9007199254740993', '9'.repeat(10_240)])
      expect(numericTextProblem('integer', text)).toBe('is out of range');
  });

  it('accepts a decimal number with an optional fraction and exponent', () => {
    for (const text of ['0', '-0', '5800', '0.4', '-2.5', '5e4', '5.8E+3', '4e-1', '1e308', '00.10'])
      expect(numericTextProblem('number', text)).toBeNull();
  });

  it('refuses every other number text, and one that overflows to Infinity', () => {
    for (const text of ['', ' 1', '+1', '0x10', '.5', '5.', '1e', '1e+', 'NaN', 'Infinity', '-Infinity', '1,5', '5e4.5']) {
      expect([text, numericTextProblem('number', text)]).toEqual([text, 'must be a decimal number']);
    }
    for (const text of ['1e309', '-1e309', '9'.repeat(10_240)]) expect(numericTextProblem('number', text)).toBe('must be a finite number');
  });
});

describe('numericValueProblem (a value of an export query, as JSON gives it)', () => {
  it('checks a string as text and a number as a finite value of the type', () => {
    expect(numericValueProblem('integer', '100')).toBeNull();
    expect(numericValueProblem('integer', '1e2')).toBe('must be an integer in plain decimal digits');
    expect(numericValueProblem('integer', 100)).toBeNull();
    expect(numericValueProblem('integer', 1.5)).toBe('must be an integer');
    expect(numericValueProblem('integer', 2 ** 60)).toBe('is out of range');
    expect(numericValueProblem('number', 1e-7)).toBeNull();
    expect(numericValueProblem('number', Infinity)).toBe('must be a finite number');
    expect(numericValueProblem('number', -Infinity)).toBe('must be a finite number');
    expect(numericValueProblem('integer', NaN)).toBe('must be a finite number');
  });

  it('refuses a boolean or anything else for a number', () => {
    expect(numericValueProblem('integer', true)).toBe('must be an integer');
    expect(numericValueProblem('number', false)).toBe('must be a number');
    expect(numericValueProblem('number', null)).toBe('must be a number');
  });
});

describe('numericTypeOf', () => {
  it('reads the type of a parameter schema, or of its items for a list', () => {
    expect(numericTypeOf({ type: 'integer', minimum: 1 })).toEqual({ type: 'integer', list: false });
    expect(numericTypeOf({ type: 'number' })).toEqual({ type: 'number', list: false });
    expect(numericTypeOf({ type: 'array', items: { type: 'number' } })).toEqual({ type: 'number', list: true });
    expect(numericTypeOf({ type: 'array', items: { type: 'string' } })).toBeNull();
    expect(numericTypeOf({ type: 'string', format: 'date' })).toBeNull();
  });
});

describe('echoed', () => {
  it('keeps a short text and cuts a long one to ECHO_MAX characters ending in an ellipsis', () => {
    expect(echoed('bogus')).toBe('bogus');
    expect(echoed('x'.repeat(ECHO_MAX))).toBe('x'.repeat(ECHO_MAX));
    const cut = echoed('x'.repeat(10_240));
    expect(cut).toHaveLength(ECHO_MAX);
    expect(cut).toBe(`${'x'.repeat(ECHO_MAX - 1)}…`);
  });
});
