// Prints the operationIds that are specified but not served yet (src/handlers/index.ts), one a line.
import { PENDING_OPERATIONS } from '../src/handlers/index.js';

process.stdout.write([...PENDING_OPERATIONS].map((id) => `${id}\n`).join(''));
