/** Runs the frozen migrations of db/migrations, in name order, each once. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './connection.js';

const migrationFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');

/** The migrations' extension: .ts from the sources (tsx, vitest), .js from the compiled dist/. */
const extension = path.extname(fileURLToPath(import.meta.url));

/** Imports the migration files from here, so the TypeScript loader in use (tsx, vitest) handles them. */
const provider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {};
    const files = (await fs.readdir(migrationFolder)).filter((f) => f.endsWith(extension)).sort();
    for (const file of files) {
      migrations[file.slice(0, -extension.length)] = (await import(pathToFileURL(path.join(migrationFolder, file)).href)) as Migration;
    }
    return migrations;
  },
};

export async function migrateToLatest(db: Database): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
