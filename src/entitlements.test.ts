import { describe, expect, it } from 'vitest';
import { loadApiContract, type OperationId } from './api-contract/openapi.js';
import type { AccountRow } from './db/accounts.js';
import { authenticatedAccount, checkEntitlements, overnightAllowed } from './entitlements.js';

const contract = loadApiContract();
const op = (id: OperationId) => contract.byId.get(id)!;
const row = (over: Partial<AccountRow> = {}): AccountRow => ({
  id: 'acct_x',
  name: 'x',
  plan: 'basic',
  datasets: ['options', 'equities'],
  overnight_entitlement: false,
  status: 'active',
  created_at: new Date(0),
  ...over,
});

describe('entitlements', () => {
  it('overnight data comes with the Pro plan or the entitlement granted alone', () => {
    expect(overnightAllowed(row())).toBe(false);
    expect(overnightAllowed(row({ plan: 'pro' }))).toBe(true);
    expect(overnightAllowed(row({ overnight_entitlement: true }))).toBe(true);
    expect(authenticatedAccount(row({ plan: 'pro' }), null)).toMatchObject({ overnight: true, key: null });
  });

  it('the overnight-only route needs overnight data whatever the query; others when gth or all is asked', () => {
    const basic = authenticatedAccount(row(), null);
    expect(() => checkEntitlements(op('listOvernightOptionFlow'), basic, {})).toThrow(/overnight entitlement/);
    expect(() => checkEntitlements(op('listOptionTrades'), basic, { session: 'rth' })).not.toThrow();
    expect(() => checkEntitlements(op('listOptionTrades'), basic, { session: 'gth' })).toThrow(/overnight entitlement/);
    expect(() => checkEntitlements(op('listOptionTrades'), basic, { session: 'all' })).toThrow(/overnight entitlement/);
    const pro = authenticatedAccount(row({ plan: 'pro' }), null);
    expect(() => checkEntitlements(op('listOvernightOptionFlow'), pro, {})).not.toThrow();
  });

  it('a route of a dataset release the account lacks is 403; a route of none is open', () => {
    const optionsOnly = authenticatedAccount(row({ datasets: ['options'] }), null);
    expect(() => checkEntitlements(op('listStockSplits'), optionsOnly, {})).toThrow(/equities dataset/);
    expect(() => checkEntitlements(op('getMarketCalendarDay'), optionsOnly, {})).not.toThrow();
    expect(() => checkEntitlements(op('listOptionTrades'), null, { session: 'gth' })).not.toThrow();
  });
});
