/** Platform routes: status, the contract, the catalog. */
import * as platform from '../services/platform.js';
import { publicOrigin } from '../services/public-url.js';
import type { Handler } from './types.js';

export const getStatus: Handler<'getStatus'> = async (ctx) => await platform.getStatus(ctx);

export const getOpenApiDocument: Handler<'getOpenApiDocument'> = async (ctx) =>
  await platform.getOpenApiDocument(ctx, publicOrigin(ctx.deps.config, ctx.headers));

export const getAsyncApiDocument: Handler<'getAsyncApiDocument'> = async (ctx) =>
  await platform.getAsyncApiDocument(ctx, publicOrigin(ctx.deps.config, ctx.headers));

export const listCatalog: Handler<'listCatalog'> = async (ctx) => await platform.listCatalog(ctx, ctx.query);
