/**
 * What an account may read, decided in one place for a request and for an export's worker alike:
 * the route's dataset release (a route fact of the contract, x-dataset), and overnight data, which
 * needs the Pro plan or the overnight entitlement granted alone. Overnight data is asked by the
 * an overnight-only route itself (x-overnight-only) or by session gth or all on a route that has overnight
 * data (x-overnight). The bytes of export files an account may hold are its plan's too.
 */
import type { OperationSpec } from './api-contract/openapi.js';
import type { Limits } from './config.js';
import type { AccountRow } from './db/accounts.js';
import { ApiError } from './errors.js';

export interface AuthenticatedAccount extends AccountRow {
  /** Overnight data: the Pro plan, or the entitlement granted to the account (overnightAllowed). */
  overnight: boolean;
  /** The key of the request; null when the service acts for the account (export jobs). */
  key: { id: string; prefix: string; name: string | null; created_at: Date } | null;
}

/** Whether an account may read overnight data. */
export function overnightAllowed(account: Pick<AccountRow, 'plan' | 'overnight_entitlement'>): boolean {
  return account.plan === 'pro' || account.overnight_entitlement;
}

/** The bytes of export files the account's plan may hold, and the setting that says so. */
export function exportBytesCap(limits: Pick<Limits, 'exportBytesHeld'>, plan: AccountRow['plan']): { bytes: number; setting: string } {
  return plan === 'pro'
    ? { bytes: limits.exportBytesHeld.pro, setting: 'LIMIT_EXPORT_BYTES_PRO' }
    : { bytes: limits.exportBytesHeld.basic, setting: 'LIMIT_EXPORT_BYTES_BASIC' };
}

/** The account as requests and jobs see it, with its entitlements resolved. */
export function authenticatedAccount(row: AccountRow, key: AuthenticatedAccount['key']): AuthenticatedAccount {
  return { ...row, overnight: overnightAllowed(row), key };
}

/** 403 unless the account's plan and entitlements allow the operation with this query. */
export function checkEntitlements(operation: OperationSpec, account: AuthenticatedAccount | null, query: Record<string, unknown>): void {
  if (!account) return;
  const dataset = operation.facts.dataset;
  if (dataset !== 'none' && !account.datasets.includes(dataset)) {
    throw new ApiError(403, 'forbidden', `This route needs the ${dataset} dataset release, which the account does not have.`);
  }
  const asksOvernight = operation.facts.overnightOnly || query.session === 'gth' || query.session === 'all';
  if (operation.facts.overnight && asksOvernight && !account.overnight) {
    throw new ApiError(403, 'forbidden', 'Overnight data needs the Pro plan or the overnight entitlement.');
  }
}
