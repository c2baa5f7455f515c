/**
 * trade_type, and the grouping of a contract's prints into the sweeps and splits of one order. A
 * contract has at most one open group, whose state lives in fields of the classifier's per-contract
 * object (GroupState), so grouping a print allocates nothing beyond its member slots. Precedence of
 * trade_type: multileg (complex trait) > cross > floor > sweep > split > single; complex, cross,
 * floor and late prints never join a group (a negotiated or complex print is one order by itself; a
 * late print's time is its report time), and the classifier passes the others of a trading date
 * here. ISO marks are not required: the same fill pattern comes from orders routed without them, and
 * the iso flag still tells which fills were marked.
 */
import type { components } from '../../generated/openapi.js';
import { GOLDEN_SWEEP_PREMIUM, isUnusual } from './print-flags.js';
import { PRICE_EPSILON } from './print-side.js';

export type TradeType = components['schemas']['OptionPrint']['trade_type'];

export interface GroupingWindows {
  /** Longest span of a sweep across exchanges, from its first print. */
  sweepWindowMs: number;
  /** Longest span of a split on one exchange, from its first print. */
  splitWindowMs: number;
}

/** A classified print as grouping reads and settles it. */
export type GroupMember = components['schemas']['OptionPrint'] & { cancelled: boolean };

/** The one open group of a contract. */
export interface GroupState {
  groupOpen: boolean;
  groupFirstTs: number;
  groupFirstExchange: number;
  groupMultiVenue: boolean;
  /** +1 buys, -1 sells, 0 not yet known (directionOf). */
  groupDirection: number;
  /** +1 once the price has risen, -1 once it has fallen, 0 constant so far. */
  groupWalk: number;
  groupLastPrice: number;
  groupMembers: GroupMember[];
  /** Queue positions of the members, for the classifier to release them. */
  groupPositions: number[];
}

/**
 * Whether a print of the contract, of the given direction (directionOf), can join its open group.
 * It joins while the group keeps one direction (ask-side and bid-side prints never mix; mid and
 * unknown prints join either, since a sweep moves the quote under its own later fills); walks the
 * price one way (constant, or rising for buys and falling for sells; once a group has moved up it
 * cannot move down, and the reverse); and stays inside the windows measured from the group's first
 * print: a group on one exchange takes same-exchange prints up to splitWindowMs after its first
 * print; a print on a second exchange joins only within sweepWindowMs, and from then on the group
 * takes prints only within that window. A print that cannot join closes the group.
 */
export function joinsGroup(
  group: GroupState,
  record: GroupMember,
  direction: number,
  splitWindowMs: number,
  sweepWindowMs: number,
): boolean {
  const elapsed = record.timestamp - group.groupFirstTs;
  const sameVenueGroup = !group.groupMultiVenue && record.exchange_code === group.groupFirstExchange;
  if (elapsed > (sameVenueGroup ? splitWindowMs : sweepWindowMs)) return false;
  const groupDirection = group.groupDirection;
  if (direction !== 0 && groupDirection !== 0 && direction !== groupDirection) return false;
  const move = record.price - group.groupLastPrice;
  const step = move > PRICE_EPSILON ? 1 : move < -PRICE_EPSILON ? -1 : 0;
  if (step !== 0) {
    // Buyers lift ever higher offers and sellers hit ever lower bids.
    const expected = groupDirection !== 0 ? groupDirection : direction;
    if (expected !== 0 && step !== expected) return false;
    if (group.groupWalk !== 0 && step !== group.groupWalk) return false;
  }
  return true;
}

/** Adds a print to the open group, or opens one with it when none is open. */
export function addToGroup(group: GroupState, record: GroupMember, position: number, direction: number): void {
  if (!group.groupOpen) {
    group.groupOpen = true;
    group.groupFirstTs = record.timestamp;
    group.groupFirstExchange = record.exchange_code;
    group.groupMultiVenue = false;
    group.groupDirection = direction;
    group.groupWalk = 0;
    group.groupLastPrice = record.price;
    group.groupMembers.push(record);
    group.groupPositions.push(position);
    return;
  }
  const move = record.price - group.groupLastPrice;
  if (move > PRICE_EPSILON) group.groupWalk = 1;
  else if (move < -PRICE_EPSILON) group.groupWalk = -1;
  if (group.groupDirection === 0) group.groupDirection = direction;
  if (record.exchange_code !== group.groupFirstExchange) group.groupMultiVenue = true;
  group.groupLastPrice = record.price;
  group.groupMembers.push(record);
  group.groupPositions.push(position);
}

/**
 * Settles the open group's trade_type, group_id, is_golden and is_unusual on its live (not
 * cancelled) members: 2 or more live prints on 2 or more exchanges are a sweep, on one exchange a
 * split; one print stays single. group_id is 'g:' + id of the group's first live print.
 */
export function settleGroup(group: GroupState): void {
  const members = group.groupMembers;
  let live = 0;
  let premium = 0;
  let first: GroupMember | undefined;
  let multiVenue = false;
  for (const m of members) {
    if (m.cancelled) continue;
    live++;
    premium += m.premium;
    if (first === undefined) first = m;
    else if (m.exchange_code !== first.exchange_code) multiVenue = true;
  }
  if (live >= 2 && first !== undefined) {
    const tradeType: TradeType = multiVenue ? 'sweep' : 'split';
    const groupId = `g:${first.id}`;
    const golden = multiVenue && Math.round(premium * 100) / 100 >= GOLDEN_SWEEP_PREMIUM;
    for (const m of members) {
      if (m.cancelled) continue;
      m.trade_type = tradeType;
      m.group_id = groupId;
      m.is_golden = golden;
      m.is_unusual = isUnusual(m);
    }
  }
}
