/**
 * The one list of routes that are specified but not served yet: they answer 501 not_implemented
 * and Schemathesis leaves them out (scripts/schemathesis reads this list). Later issues shrink it.
 */
import type { OperationId } from '../contract.js';

export const PENDING_OPERATIONS: ReadonlySet<OperationId> = new Set<OperationId>([
]);
