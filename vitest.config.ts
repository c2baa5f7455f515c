import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The unit files that simulate markets of the default scale, tens of seconds each (most of the unit
 * tier's time), longest first. With no durations of an earlier run (a clean clone, CI), vitest
 * starts the larger files first, and simulator-runs.test.ts, a short file, started last: for its
 * 30 s one worker ran it alone while the other had nothing left. Listed files start before the rest;
 * the rest keep vitest's order (longest first by the durations it keeps, when it has them).
 */
const LONG_FILES = [
  'src/ingest/simulator/simulator.test.ts',
  'src/ingest/simulator/chain-snapshots.test.ts',
  'src/ingest/simulator/simulator-runs.test.ts',
  'src/ingest/simulator/quote-bounds.test.ts',
  'src/live/simulated-source.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const at = LONG_FILES.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return at === -1 ? LONG_FILES.length : at;
    };
    return sorted
      .map((file, at) => ({ file, at, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.at - b.at)
      .map(({ file }) => file);
  }
}

// Five tiers: pure units beside the code, integration against real PostgreSQL, contract tests
// (every route through the generated client with response validation on), and reliability tests
// (the service as an operator and a hostile user meet it: databases that die, signals, bad input),
// and the deployment tier (several machines on one primary with a streaming replica).
export default defineConfig({
  test: {
    sequence: { sequencer: LongFilesFirst },
    projects: [
      // Some units read a simulated market of the default scale: seconds on a loaded machine, within
      // reach of vitest's 5 s default.
      { test: { name: 'unit', include: ['src/**/*.test.ts', 'bench/**/*.test.ts'], environment: 'node', testTimeout: 30_000 } },
      // The tiers on PostgreSQL: a set-up hook may wait for another file's first load of the same market
      // (test/support/market-template.ts) before copying it, with another file running beside them.
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      // Several machines on one PostgreSQL primary with a streaming replica: each file starts its own
      // deployment (a primary, a replica, two service clusters) from the embedded server's binaries.
      {
        test: {
          name: 'deployment',
          include: ['test/deployment/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: 'contract',
          include: ['test/contract/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
