/**
 * The docs' "SDKs" section: how to install the two client libraries of the repository
 * (sdk/typescript, sdk/python) and make a first call, added to the served contract's description
 * (before "Where the data comes from", after Getting started) with the contract's version, which
 * both packages carry (scripts/codegen and scripts/codegen-python set it; `make sdk` names its
 * artefacts by it).
 */

/** The section's Markdown for a contract of `version`. */
export function sdkInstallSection(version: string): string {
  return `## SDKs
Two client libraries live in the repository, each versioned as this contract (\`info.version\`, now
${version}): one method per operation (the TypeScript and Python samples of each operation below),
cursor pages, retries that honour \`Retry-After\`, typed errors, an export helper, and a client-side
limiter that keeps an account within its in-flight, per-second and per-minute limits by itself (read
once from \`GET /v1/account/limits\`), so a \`Promise.all\` or a thread pool of many calls is paced
instead of refused with 429.

**TypeScript** (\`@oads/sdk\`: Node 20+, browsers, Deno, Bun; no dependencies):

\`\`\`sh
npm install ./sdk/typescript                       # from a checkout: its compiled dist/ is committed
make sdk && npm install ./build/sdk/oads-sdk-${version}.tgz   # or the release tarball (npm pack)
\`\`\`

\`\`\`ts
import { Oads } from '@oads/sdk';
const oads = new Oads({ apiKey: process.env.OADS_API_KEY, baseUrl: 'http://127.0.0.1:8080' });
const page = await oads.listOptionTrades({ underlying_symbol: 'SPX', side: ['ask', 'above_ask'], limit: 100 });
const file = await oads.runExport({ path: '/v1/options/trades', query: { underlying_symbol: 'SPX', limit: 50000 } });
file.file.data;   // OptionPrint[]: an export's rows typed as its route's
\`\`\`

**Python** (\`oads-sdk\`: Python 3.11+, with httpx, attrs and python-dateutil):

\`\`\`sh
pip install ./sdk/python                           # from a checkout
make sdk && pip install ./build/sdk/oads_sdk-${version}-py3-none-any.whl   # or the wheel (its sdist beside it)
\`\`\`

\`\`\`python
import os
from oads_sdk import Oads
oads = Oads(api_key=os.environ["OADS_API_KEY"], base_url="http://127.0.0.1:8080")
page = oads.list_option_trades(underlying_symbol="SPX", side=["ask", "above_ask"], limit=100)
typed = Oads(api_key=os.environ["OADS_API_KEY"], typed=True)   # the generated models instead of dicts
typed.list_option_trades(underlying_symbol="SPX", limit=100).data[0].premium
\`\`\`

The limiter's limits are set with \`limits\` (\`{ inFlight: 2 }\` / \`limits={"in_flight": 2}\`; a limit
left out is read from the account) and turned off with \`limits: false\` / \`limits=False\`. It counts
one client's requests: several clients of one account share its limits. Each package's README
(\`sdk/typescript/README.md\`, \`sdk/python/README.md\`) tells the rest: retries, pages, errors, exports.
`;
}

/** A description with the SDKs section before its "Where the data comes from" section (or at its end). */
export function withSdkInstall(description: string, version: string): string {
  const section = sdkInstallSection(version);
  const at = description.indexOf('\n## Where the data comes from');
  if (at < 0) return `${description.trimEnd()}\n\n${section}`;
  return `${description.slice(0, at + 1)}${section}\n${description.slice(at + 1)}`;
}
