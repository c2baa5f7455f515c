import { describe, expect, it } from 'vitest';
import { dataOriginOf } from './data-origin.js';

const none = { simulatedFiles: 0, loadedFiles: 0, simulatorSeed: null, simulatorScale: null, liveSimulation: false };
const simulated = { simulatedFiles: 29, loadedFiles: 0, simulatorSeed: 20261122, simulatorScale: 'default', liveSimulation: true };

describe('dataOriginOf', () => {
  it('names the origin from the files counted', () => {
    expect(dataOriginOf(none).kind).toBe('empty');
    expect(dataOriginOf(simulated).kind).toBe('simulated');
    expect(dataOriginOf({ ...none, loadedFiles: 3 }).kind).toBe('files');
    expect(dataOriginOf({ ...simulated, loadedFiles: 1 }).kind).toBe('mixed');
  });

  it('reports the counts, the seed and the scale as recorded', () => {
    expect(dataOriginOf(simulated)).toEqual({
      kind: 'simulated',
      simulated_files: 29,
      loaded_files: 0,
      simulator_seed: 20261122,
      simulator_scale: 'default',
      live_simulation: true,
    });
  });
});
