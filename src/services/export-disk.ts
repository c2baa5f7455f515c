/**
 * The disk the export files are written to (DATA_DIR's): exports are paused while its free bytes
 * are below the service's floor (EXPORT_DISK_FLOOR_BYTES), so that files of exports never take the
 * last of the disk the database and the logs share. A new export is then refused 503
 * upstream_busy, a queued one waits (jobs/export.ts, as it waits for data being loaded), and
 * /v1/status shows `exports: paused`. The free space is read by statfs at each ask: one system call.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';

export interface ExportDisk {
  freeBytes: number;
  floorBytes: number;
  paused: boolean;
}

/** How long a refused export is asked to wait, and a queued one waits, before the disk is read again. */
export const EXPORT_DISK_WAIT_MS = 10_000;

/** statfs of the directory, or of its nearest existing parent (DATA_DIR/exports is made on first write). */
async function statfsNearest(dir: string): Promise<fs.StatsFs> {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      return await fs.promises.statfs(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(at) === at) throw error;
    }
  }
}

export async function exportDisk(config: Pick<Readonly<Config>, 'dataDir' | 'limits'>): Promise<ExportDisk> {
  const stats = await statfsNearest(path.join(config.dataDir, 'exports'));
  const freeBytes = stats.bavail * stats.bsize;
  const floorBytes = config.limits.exportDiskFloorBytes;
  return { freeBytes, floorBytes, paused: freeBytes < floorBytes };
}

/** 503 upstream_busy while exports are paused for want of disk. */
export async function checkExportDisk(config: Pick<Readonly<Config>, 'dataDir' | 'limits'>): Promise<void> {
  const disk = await exportDisk(config);
  if (!disk.paused) return;
  throw new ApiError(
    503,
    'upstream_busy',
    `Exports are paused: the service's disk has less free space than its floor of ${disk.floorBytes} bytes (EXPORT_DISK_FLOOR_BYTES).`,
    [],
    EXPORT_DISK_WAIT_MS,
  );
}
