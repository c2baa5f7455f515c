import { describe, expect, it } from 'vitest';
import { customerFlow, dealerPosition, perspectiveSign, POSITIONING_MODEL_VERSIONS, type ClassifiedPrint } from './positions.js';

describe('customerFlow', () => {
  it('counts ask-side buys and bid-side sells; mid, unknown and complex prints change nothing', () => {
    const prints: ClassifiedPrint[] = [
      { side: 'at_ask', size: 30, complex: false },
      { side: 'above_ask', size: 5, complex: false },
      { side: 'near_ask', size: 2, complex: false },
      { side: 'near_bid', size: 10, complex: false },
      { side: 'below_bid', size: 1, complex: false },
      { side: 'at_bid', size: 4, complex: false },
      { side: 'mid', size: 50, complex: false },
      { side: 'unknown', size: 7, complex: false },
      { side: 'at_ask', size: 20, complex: true },
      { side: 'at_bid', size: 9, complex: true },
    ];
    expect(customerFlow(prints)).toEqual({ bought: 37, sold: 15 });
    expect(customerFlow([])).toEqual({ bought: 0, sold: 0 });
  });
});

describe('dealerPosition', () => {
  it('classic_oi: long the calls, short the puts of the open interest', () => {
    expect(dealerPosition('call', 100, 'classic_oi')).toBe(100);
    expect(dealerPosition('put', 100, 'classic_oi')).toBe(-100);
    // The flow is ignored by the classic model.
    expect(dealerPosition('call', 100, 'classic_oi', { bought: 37, sold: 15 })).toBe(100);
  });

  it('flow_adjusted: customer buys leave the dealer shorter, sells longer', () => {
    // 100 − 37 + 15 = 78 for the call; −100 − 37 + 15 = −122 for the put.
    expect(dealerPosition('call', 100, 'flow_adjusted', { bought: 37, sold: 15 })).toBe(78);
    expect(dealerPosition('put', 100, 'flow_adjusted', { bought: 37, sold: 15 })).toBe(-122);
    expect(dealerPosition('put', 100, 'flow_adjusted')).toBe(-100);
  });

  it('names the models with a version, and the customer perspective is the negative', () => {
    expect(POSITIONING_MODEL_VERSIONS).toEqual({ classic_oi: 'classic_oi/v1', flow_adjusted: 'flow_adjusted/v1' });
    expect(perspectiveSign('dealer')).toBe(1);
    expect(perspectiveSign('customer')).toBe(-1);
  });
});
