/** Platform routes: status, the contract, the catalog. */
import { buildCatalog, type CatalogEntry } from '../analytics/catalog.js';
import { datasetFreshness, pingDatabase } from '../db/status.js';
import { ApiError } from '../errors.js';
import type { Handler } from './types.js';

const catalogs = new WeakMap<object, CatalogEntry[]>();

export const getStatus: Handler<'getStatus'> = async ({ deps }) => {
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
};

export const getOpenApiDocument: Handler<'getOpenApiDocument'> = async ({ deps }) => ({
  data: deps.contract.document as never,
  bare: true,
});

export const listCatalog: Handler<'listCatalog'> = async ({ deps, query }) => {
  let catalog = catalogs.get(deps.contract);
  if (!catalog) {
    catalog = buildCatalog(deps.contract.operations);
    catalogs.set(deps.contract, catalog);
  }
  return { data: query.family ? catalog.filter((e) => e.family === query.family) : catalog, source: 'derived' };
};
