/**
 * The Parquet export file, written a row group at a time: rows are held as columns until a group
 * of ROW_GROUP_ROWS is complete, encoded (Snappy) and appended to the run's file, so a run holds
 * one row group, never the file. Column types follow the contract (api-contract/export-columns.ts):
 * Unix ms as TIMESTAMP(MICROS, adjusted to UTC), dates as DATE, integers as INT64, numbers as
 * DOUBLE, booleans as BOOLEAN, text as STRING, arrays and objects as JSON text; every column is
 * OPTIONAL (null where the JSON has null). Prices and premiums stay DOUBLE: the service computes
 * and serves them as IEEE doubles (`format: double` in the contract), so the file holds the very
 * values of the JSON export, where a DECIMAL would need a scale the contract does not state and
 * would round. The key-value metadata `oads.export` holds the JSON export's meta, pages and
 * truncated.
 *
 * The byte cap counts the file's bytes, footer included: each group is encoded in memory and
 * measured with the footer the file would then end with; a group that would pass the cap is
 * taken back and its longest prefix that fits is found by halving, and the file is then full.
 *
 * Writer: hyparquet-writer (pure JavaScript, one dependency, its reader hyparquet; no native
 * binary, no WebAssembly), chosen over @dsnp/parquetjs (pulls in the AWS S3 client, thrift and
 * WebAssembly codecs), parquet-wasm (writes whole Arrow tables from memory) and @duckdb/node-api
 * (a native binary per platform): its ParquetWriter appends row groups as they come, and it writes
 * the logical types TIMESTAMP (MICROS, isAdjustedToUTC), DATE, DECIMAL, STRING and JSON.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ByteWriter, ParquetWriter, type ColumnSource, type SchemaElement } from 'hyparquet-writer';
import type { ColumnKind, ExportColumn } from '../api-contract/export-columns.js';
import { etagOf, removeFile, type ExportWriter, type WrittenFile } from './export-file.js';

/** Rows of a row group: about 10 MB of held columns for a print row of 31 fields. */
export const ROW_GROUP_ROWS = 50_000;

const DAY_MS = 86_400_000;

const SCHEMA_OF: Record<ColumnKind, Omit<SchemaElement, 'name'>> = {
  timestamp: {
    type: 'INT64',
    converted_type: 'TIMESTAMP_MICROS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
  },
  date: { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } },
  integer: { type: 'INT64' },
  number: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } },
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON', logical_type: { type: 'JSON' } },
};

/** A JSON value as the column's Parquet value (null stays null). */
function valueOf(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'timestamp':
      return BigInt(value as number) * 1000n;
    case 'date':
      return Date.parse(`${value as string}T00:00:00Z`) / DAY_MS;
    case 'integer':
      return BigInt(value as number);
    case 'number':
      return Number(value);
    case 'boolean':
      return value === true;
    case 'string':
      return value;
    case 'json':
      return value;
  }
}

/** The state of the Parquet writer before a group, to take the group back. */
interface Mark {
  rowGroups: number;
  indexes: number;
  numRows: bigint;
  offset: number;
  index: number;
}

export class ParquetExportWriter implements ExportWriter {
  private rows = 0;
  private held: unknown[][];
  private heldRows = 0;
  private readonly bytes: ByteWriter = new ByteWriter(1024 * 1024);
  private readonly parquet: ParquetWriter;
  private readonly hash = createHash('sha256');
  full = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly columns: readonly ExportColumn[],
    private readonly metaJson: string,
  ) {
    this.held = columns.map(() => []);
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length },
      ...columns.map((c) => ({ name: c.name, repetition_type: 'OPTIONAL' as const, ...SCHEMA_OF[c.kind] })),
    ];
    this.parquet = new ParquetWriter({ writer: this.bytes, schema, createdBy: 'oads export (hyparquet-writer 0.17)' });
    this.setEnd(Number.MAX_SAFE_INTEGER, false);
  }

  /** Opens the run's temporary file; `meta` is the JSON export's meta, kept in the file's metadata. */
  static async open(file: string, maxBytes: number, columns: readonly ExportColumn[], meta: unknown): Promise<ParquetExportWriter> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return new ParquetExportWriter(await fs.promises.open(file, 'w'), file, maxBytes, columns, JSON.stringify(meta));
  }

  get rowCount(): number {
    return this.rows;
  }

  /** The file's key-value metadata (the largest page count is reserved while rows are written). */
  private setEnd(pages: number, truncated: boolean): void {
    this.parquet.kvMetadata = [{ key: 'oads.export', value: `{"meta":${this.metaJson},"pages":${pages},"truncated":${truncated}}` }];
  }

  async addRows(rows: readonly unknown[], maxRows: number): Promise<number> {
    let taken = 0;
    for (const row of rows) {
      if (this.full || this.rows >= maxRows) break;
      const record = row as Record<string, unknown>;
      this.columns.forEach((c, i) => this.held[i]!.push(valueOf(c.kind, record[c.name])));
      this.heldRows += 1;
      this.rows += 1;
      taken += 1;
      if (this.heldRows >= ROW_GROUP_ROWS) await this.writeGroup();
    }
    return taken;
  }

  /** Bytes of the footer the file would end with now: the writer's own end, written aside. */
  private footerBytes(): number {
    const file = this.parquet.writer;
    const aside = new ByteWriter();
    aside.offset = file.offset;
    this.parquet.writer = aside;
    try {
      void this.parquet.finish();
    } finally {
      this.parquet.writer = file;
    }
    return aside.offset - file.offset;
  }

  private mark(): Mark {
    const p = this.parquet;
    return {
      rowGroups: p.row_groups.length,
      indexes: p.pendingIndexes.length,
      numRows: p.num_rows,
      offset: this.bytes.offset,
      index: this.bytes.index,
    };
  }

  private takeBack(mark: Mark): void {
    const p = this.parquet;
    p.row_groups.length = mark.rowGroups;
    p.pendingIndexes.length = mark.indexes;
    p.num_rows = mark.numRows;
    this.bytes.offset = mark.offset;
    this.bytes.index = mark.index;
  }

  /** Encodes the first `count` held rows as a group; kept if the file still fits under the cap. */
  private encode(count: number): boolean {
    const mark = this.mark();
    const columnData: ColumnSource[] = this.columns.map((c, i) => ({ name: c.name, data: this.held[i]!.slice(0, count) }));
    void this.parquet.write({ columnData, rowGroupSize: count });
    if (this.bytes.offset + this.footerBytes() <= this.maxBytes) return true;
    this.takeBack(mark);
    return false;
  }

  /** Writes the held rows as a row group, or the most of them that fit (the file is then full). */
  private async writeGroup(): Promise<void> {
    const count = this.heldRows;
    if (count === 0) return;
    if (!this.encode(count)) {
      let fits = 0;
      let over = count;
      while (over - fits > 1) {
        const mid = Math.floor((fits + over) / 2);
        const mark = this.mark();
        if (this.encode(mid)) {
          this.takeBack(mark);
          fits = mid;
        } else over = mid;
      }
      if (fits > 0) this.encode(fits);
      this.rows -= count - fits;
      this.full = true;
    }
    this.held = this.columns.map(() => []);
    this.heldRows = 0;
    await this.flushBytes();
  }

  /** Appends the encoded bytes to the file and empties the buffer (its offset counts on). */
  private async flushBytes(): Promise<void> {
    const chunk = Buffer.from(this.bytes.getBytes());
    this.bytes.index = 0;
    await this.handle.write(chunk);
    this.hash.update(chunk);
  }

  async finish(target: string, pages: number, truncated: boolean): Promise<WrittenFile> {
    try {
      await this.writeGroup();
      this.setEnd(pages, truncated || this.full);
      void this.parquet.finish();
      await this.flushBytes();
      await this.handle.close();
      await fs.promises.rename(this.file, target);
    } catch (error) {
      await this.discard();
      throw error;
    }
    return { bytes: this.bytes.offset, etag: etagOf(this.hash), rows: this.rows, truncated: truncated || this.full };
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await removeFile(this.file);
  }
}
