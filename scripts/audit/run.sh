#!/usr/bin/env bash
# Issue 33's closing audit on a fresh start: the service as `make run` starts it (dist/, embedded
# PostgreSQL, first-start seed of the simulated week, live market), on its own port and data folder,
# its clock started in the early-close session of 2026-11-27 (12:58 ET: SPY closes at 13:00, the
# index options at 13:15, so the 0DTE settlement happens during the audit), then
# scripts/audit/issue-33.ts against it, then the service stopped and the folder removed.
#
#   bash scripts/audit/run.sh [out.md]
#
# By default (AUDIT_WAIT_SETTLEMENT=1) the audit waits until the service clock passes 13:21 ET (about 23
# minutes after the start), so that the instants it asks for (13:15 and 13:20 ET) are not after the
# clock (an `at` after the clock is read as the clock) and the
# live post-settlement check of item 10 runs; AUDIT_WAIT_SETTLEMENT=0 audits at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${AUDIT_PORT:-18433}
PG_PORT=${AUDIT_PG_PORT:-55433}
CLOCK=${AUDIT_CLOCK_START:-2026-11-27T12:58:00-05:00}
OUT=${1:-build/audit/issue-33.md}
DATA=$(mktemp -d /tmp/audit33.XXXXXX)
chmod 755 "$DATA" # the embedded server runs as the postgres user when started by root
mkdir -p "$(dirname "$OUT")"
bash scripts/build
PORT=$PORT DATA_DIR=$DATA EMBEDDED_PG_PORT=$PG_PORT CLOCK_START=$CLOCK WEB_WORKERS=1 \
  LIMIT_PER_MINUTE=1000000 LIMIT_PER_SECOND=10000 LIMIT_IN_FLIGHT=16 LIMIT_COOLDOWN_AFTER_REJECTIONS=1000000 \
  node dist/src/main.js >"$DATA/service.log" 2>&1 &
PID=$!
cleanup() {
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  rm -rf "$DATA"
}
trap cleanup EXIT
for _ in $(seq 1 600); do
  if curl -sf "http://127.0.0.1:$PORT/v1/status" >/dev/null 2>&1 && [ -s "$DATA/demo-key" ]; then break; fi
  kill -0 "$PID" 2>/dev/null || { cat "$DATA/service.log"; exit 1; }
  sleep 1
done
KEY=$(cat "$DATA/demo-key")
export DATABASE_URL="postgresql://postgres:postgres@127.0.0.1:$PG_PORT/postgres"
BASIC=$(DATA_DIR=$DATA npx tsx src/cli/accounts.ts create-account --name audit-basic --plan basic --overnight false | awk '$1 == "key" {print $2}')
unset DATABASE_URL
if [ "${AUDIT_WAIT_SETTLEMENT:-1}" = 1 ]; then
  until [ "$(curl -s -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/status" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).meta.as_of >= Date.parse("2026-11-27T13:21:00-05:00") ? 1 : 0))')" = 1 ]; do sleep 10; done
fi
AUDIT_BASE="http://127.0.0.1:$PORT" AUDIT_KEY=$KEY AUDIT_BASIC_KEY=$BASIC npx tsx scripts/audit/issue-33.ts "$OUT"
