/**
 * `npm run accounts -- <command>`: manage accounts and keys.
 *   create-account --name NAME [--plan basic|pro] [--datasets options,equities,...] [--overnight true|false]
 *   create-key ACCOUNT_ID [--name NAME]        prints the key once; only its hash is stored
 *   list                                       accounts, plans, states and key prefixes
 *   revoke-key KEY_ID_OR_PREFIX
 *   suspend ACCOUNT_ID | reactivate ACCOUNT_ID
 *   set-plan ACCOUNT_ID --plan basic|pro [--datasets ...] [--overnight true|false]
 */
import { parseArgs } from 'node:util';
import { ALL_DATASETS, createAccount, createKey } from '../accounts.js';
import { listAccountsWithKeys, revokeKey, setAccountPlan, setAccountStatus } from '../db/accounts.js';
import type { DatasetRelease, Plan } from '../db/schema.js';
import { openForCli } from './database.js';

const USAGE = `usage: npm run accounts -- <command> [options]
  create-account --name NAME [--plan basic|pro] [--datasets options,equities,...] [--overnight true|false]
  create-key ACCOUNT_ID [--name NAME]        prints the key once; only its hash is stored
  list                                       accounts, plans, states and key prefixes
  revoke-key KEY_ID_OR_PREFIX
  suspend ACCOUNT_ID | reactivate ACCOUNT_ID
  set-plan ACCOUNT_ID --plan basic|pro [--datasets ...] [--overnight true|false]
The database is DATABASE_URL's, or the embedded server of DATA_DIR (default .data).`;

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (value !== 'basic' && value !== 'pro') throw new Error('--plan must be basic or pro');
  return value;
}

function datasets(value: string | undefined): DatasetRelease[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((s) => s.trim());
  const bad = list.filter((d) => !ALL_DATASETS.includes(d as DatasetRelease));
  if (bad.length > 0) throw new Error(`unknown dataset release: ${bad.join(', ')} (known: ${ALL_DATASETS.join(', ')})`);
  return list as DatasetRelease[];
}

/** The arguments, or the usage on stderr and exit 2 (an unknown option, no command); --help prints it on stdout. */
function parsed(): ReturnType<typeof parseOptions> {
  try {
    const args = parseOptions();
    if (args.values.help === true) {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    return args;
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exit(2);
  }
}
function parseOptions() {
  return parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      datasets: { type: 'string' },
      overnight: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

const { positionals, values } = parsed();
const [command, target] = positionals;
const COMMANDS = ['create-account', 'create-key', 'list', 'revoke-key', 'suspend', 'reactivate', 'set-plan'];
if (!command || !COMMANDS.includes(command)) {
  process.stderr.write(`${command ? `error: unknown command ${command}\n` : ''}${USAGE}\n`);
  process.exit(2);
}
try {
  // Arguments are checked before the database is opened.
  plan(values.plan);
  datasets(values.datasets);
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

const handle = await openForCli();
const db = handle.admin;
let exitCode = 0;
try {
  switch (command ?? '') {
    case 'create-account': {
      if (!values.name) throw new Error('--name is required');
      const id = await createAccount(db, {
        name: values.name,
        plan: plan(values.plan) ?? 'basic',
        datasets: datasets(values.datasets),
        overnight: values.overnight === 'true',
      });
      const key = await createKey(db, id, 'default');
      process.stdout.write(`account ${id}\nkey     ${key.key}\n(prefix ${key.prefix}; the key is shown only now)\n`);
      break;
    }
    case 'create-key': {
      if (!target) throw new Error('create-key needs an account id');
      const key = await createKey(db, target, values.name ?? null);
      process.stdout.write(`key ${key.key}\n(prefix ${key.prefix}; the key is shown only now)\n`);
      break;
    }
    case 'list': {
      for (const row of await listAccountsWithKeys(db)) {
        const key = row.prefix ? `${row.prefix}${row.revoked_at ? ' (revoked)' : ''}` : '-';
        process.stdout.write(`${row.id}\t${row.plan}\t${row.status}\t${row.datasets.join(',')}\t${key}\t${row.name}\n`);
      }
      break;
    }
    case 'revoke-key':
      if (!target || !(await revokeKey(db, target))) throw new Error(`no live key ${target ?? ''}`);
      process.stdout.write(`revoked ${target}\n`);
      break;
    case 'suspend':
    case 'reactivate':
      if (!target || !(await setAccountStatus(db, target, command === 'suspend' ? 'suspended' : 'active')))
        throw new Error(`no account ${target ?? ''}`);
      process.stdout.write(`${command === 'suspend' ? 'suspended' : 'reactivated'} ${target}\n`);
      break;
    case 'set-plan': {
      if (!target) throw new Error('set-plan needs an account id');
      const changes = {
        ...(values.plan ? { plan: plan(values.plan) } : {}),
        ...(values.datasets ? { datasets: datasets(values.datasets) } : {}),
        ...(values.overnight ? { overnight_entitlement: values.overnight === 'true' } : {}),
      };
      if (!(await setAccountPlan(db, target, changes))) throw new Error(`no account ${target}`);
      process.stdout.write(`updated ${target}\n`);
      break;
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
} finally {
  await handle.close();
}
process.exit(exitCode);
