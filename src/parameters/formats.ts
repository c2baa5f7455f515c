/**
 * The custom formats of the contract's parameter schemas, given to both validators of a query:
 * express-openapi-validator on a request (middleware/validation.ts) and query-validator.ts on a
 * query given as data.
 */
import { hasAtMostThreeDecimals, isCalendarDate } from '../formats.js';

export const PARAMETER_FORMATS = {
  // A real calendar date (ajv's fast mode accepts 2030-06-31).
  date: { type: 'string', validate: isCalendarDate },
  // A strike of at most three decimals (api-contract/openapi.ts STRIKE_STEP).
  strike: { type: 'number', validate: hasAtMostThreeDecimals },
} as const;
