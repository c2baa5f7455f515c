/**
 * `make docs`: writes the document the docs page is built from, the contract as /v1/openapi.json
 * serves it (with response examples and request samples, src/docs/enrich.ts), to the file given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadApiContract } from '../src/api-contract/openapi.js';
import { servedDocument } from '../src/docs/enrich.js';

const out = process.argv[2];
if (!out) throw new Error('usage: docs-document.ts <output.json>');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(servedDocument(loadApiContract()), null, 2)}\n`);
