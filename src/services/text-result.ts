/**
 * Results whose data is JSON text: the print feeds' pages (stored bodies joined) and the answers the
 * per-process memos keep (memos.ts), written into the envelope as they are.
 */
import type { OperationId } from '../api-contract/openapi.js';
import type { ResponseMemo } from './response-memo.js';
import type { DataOf, Result } from './types.js';

/**
 * A route's answer kept in `memo` as JSON text under `key` (computed once when missing): each
 * caller gets its own copy, parsed only when something reads it (response validation, exports);
 * the envelope writes the text as it is.
 */
export async function keptAnswer<Op extends OperationId>(
  memo: ResponseMemo<string>,
  key: string,
  source: Result<Op>['source'],
  compute: () => Promise<DataOf<Op>>,
): Promise<Result<Op>> {
  return textResult<Op>(await memo.get(key, async () => JSON.stringify(await compute())), source);
}

/** A result whose data is JSON text, parsed only when something reads `data` (response validation, exports). */
export function textResult<Op extends OperationId>(dataJson: string, source: Result<Op>['source']): Result<Op> & { dataJson: string } {
  let parsed: DataOf<Op> | undefined;
  return {
    get data(): DataOf<Op> {
      parsed ??= JSON.parse(dataJson) as DataOf<Op>;
      return parsed;
    },
    dataJson,
    source,
  };
}
