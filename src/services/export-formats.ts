/**
 * The formats of an export file (the contract's ExportFormat): the file name's ending and the media
 * type its download is sent with. The CSV file is stored and sent gzip-compressed as it is, a
 * `.csv.gz` file (not `Content-Encoding: gzip`, which clients undo on the fly: its Content-Length
 * and ETag then no longer describe what they save).
 */
import type { ExportFormat } from '../db/schema.js';

export type { ExportFormat };

export const EXPORT_FORMATS: Record<ExportFormat, { extension: string; mediaType: string }> = {
  json: { extension: 'json', mediaType: 'application/json; charset=utf-8' },
  csv: { extension: 'csv.gz', mediaType: 'application/gzip' },
  parquet: { extension: 'parquet', mediaType: 'application/vnd.apache.parquet' },
};
