import { describe, expect, it } from 'vitest';
import { loadApiContract } from '../api-contract/openapi.js';
import { CHANNELS, STREAMED_OPERATIONS } from './channels.js';

describe('stream channels and the contract', () => {
  it('marks x-streamable exactly the operations a channel streams', () => {
    const contract = loadApiContract();
    const streamable = contract.operations.filter((o) => o.facts.streamable).map((o) => o.operationId);
    expect(streamable.sort()).toEqual([...STREAMED_OPERATIONS].sort());
    expect(CHANNELS.map((c) => c.name)).toEqual(['prints', 'premium_drift', 'levels', 'futures_trades', 'index_values']);
    for (const channel of CHANNELS) expect(contract.byId.has(channel.rules)).toBe(true);
  });
});
