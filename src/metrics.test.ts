import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';

describe('the read replicas in the metrics', () => {
  it('shows each replica up or out, its lag and reads, and the reads left to the primary', async () => {
    const metrics = new Metrics();
    let text = await metrics.registry.metrics();
    // No replica configured: the gauges have no series.
    expect(text).not.toMatch(/^oads_db_replica_up\{/m);
    metrics.watchReplicas({
      status: () => [
        { name: 'r1:5432/oads', state: 'up', lagBytes: 120, lagSeconds: 0.5, replayPaused: false, reads: 7 },
        { name: 'r2:5432/oads', state: 'down', lagBytes: null, lagSeconds: null, replayPaused: null, reads: 2 },
      ],
      counts: { fallbackLag: 3, fallbackFailure: 1, fallbackDown: 0 },
    });
    text = await metrics.registry.metrics();
    expect(text).toMatch(/^oads_db_replica_up\{replica="r1:5432\/oads"\} 1$/m);
    expect(text).toMatch(/^oads_db_replica_up\{replica="r2:5432\/oads"\} 0$/m);
    expect(text).toMatch(/^oads_db_replica_lag_bytes\{replica="r1:5432\/oads"\} 120$/m);
    expect(text).not.toMatch(/^oads_db_replica_lag_bytes\{replica="r2:5432\/oads"\}/m);
    expect(text).toMatch(/^oads_db_replica_lag_seconds\{replica="r1:5432\/oads"\} 0.5$/m);
    expect(text).toMatch(/^oads_db_replica_reads\{replica="r2:5432\/oads"\} 2$/m);
    expect(text).toMatch(/^oads_db_replica_fallbacks\{reason="lag"\} 3$/m);
    expect(text).toMatch(/^oads_db_replica_fallbacks\{reason="failure"\} 1$/m);
  });
});
