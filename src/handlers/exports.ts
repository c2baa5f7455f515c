/** Exports: queue a file export of a data route, poll it, download the file. */
import * as exports from '../services/exports.js';
import type { Handler } from './types.js';

export const createExport: Handler<'createExport'> = async (ctx) => await exports.createExport(ctx, ctx.body);

export const getExport: Handler<'getExport'> = async (ctx) => await exports.getExport(ctx, ctx.params.id);

export const downloadExport: Handler<'downloadExport'> = async (ctx) => await exports.downloadExport(ctx, ctx.params.id);
