/** Platform routes: status, the contract, the catalog. */
import { buildCatalog, type CatalogEntry } from '../analytics/catalog.js';
import { datasetFreshness, pingDatabase } from '../db/status.js';
import { ApiError } from '../errors.js';
import type { QueryOf, Result, ServiceContext } from './types.js';

const catalogs = new WeakMap<object, CatalogEntry[]>();

export async function getStatus({ deps }: ServiceContext): Promise<Result<'getStatus'>> {
  let latency: number;
  try {
    latency = await pingDatabase(deps.db);
  } catch {
    throw new ApiError(503, 'upstream_busy', 'The database does not answer.', [], 5000);
  }
  return {
    data: {
      status: 'ok',
      version: deps.config.version,
      started_timestamp: deps.startedAt,
      database: { status: 'ok', latency_ms: latency },
      datasets: await datasetFreshness(deps.db),
    },
    source: 'derived',
  };
}

/** The contract itself, served bare (no envelope). */
export async function getOpenApiDocument({ deps }: ServiceContext): Promise<Result<'getOpenApiDocument'>> {
  return { data: deps.contract.document as never, bare: true };
}

export async function listCatalog({ deps }: ServiceContext, query: QueryOf<'listCatalog'>): Promise<Result<'listCatalog'>> {
  let catalog = catalogs.get(deps.contract);
  if (!catalog) {
    catalog = buildCatalog(deps.contract.operations);
    catalogs.set(deps.contract, catalog);
  }
  return { data: query.family ? catalog.filter((e) => e.family === query.family) : catalog, source: 'derived' };
}
