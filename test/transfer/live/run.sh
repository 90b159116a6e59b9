#!/usr/bin/env bash
# The live round trip against the real Strapi 5.54 (on demand; CI cannot install Strapi):
#   Strapi (seeded: bench seed + uploads, drafts, locales, users) --strapi export--> archive
#   --vellum import--> Vellum (compared with Strapi; users sign in)
#   --vellum export--> archive --strapi import--> a fresh Strapi (compared with the first)
# Also re-records the CI fixture (test/fixtures/strapi-archive) with RECORD=1.
#   N=30 PORT=1450 test/transfer/live/run.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; ROOT="$(cd "$HERE/../../.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"; [ -d "$SHARED/bench" ] || SHARED=/work/shared
REF="${STRAPI_REFERENCE:-$HOME/strapi-reference}"
PORT="${PORT:-1450}"; N="${N:-30}"; WORK="${WORK:-/tmp/vellum-live-transfer}"
A="$WORK/strapi-a"; B="$WORK/strapi-b"; P="$WORK/vellum"
[ -f "$REF/node_modules/@strapi/strapi/package.json" ] || { echo "install Strapi first: $SHARED/bench/strapi/start.sh"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"
copy() { mkdir -p "$1"; (cd "$REF" && for f in $(ls -A | grep -v -E '^(node_modules|\.tmp|strapi\.pid)$'); do cp -r "$f" "$1/"; done); chmod -R u+w "$1"; ln -sfn "$REF/node_modules" "$1/node_modules"; rm -rf "$1/public/uploads"/*; }
strapi() { (cd "$1" && NODE_ENV=production STRAPI_TELEMETRY_DISABLED=true node node_modules/@strapi/strapi/bin/strapi.js "${@:2}"); }
TOKEN=$(grep BENCH_API_TOKEN "$SHARED/bench/strapi/template/env" | cut -d= -f2)
cleanup() { for d in "$A" "$B"; do [ -f "$d/strapi.pid" ] && kill "$(cat "$d/strapi.pid")" 2>/dev/null || true; done; [ -n "${VPID:-}" ] && kill "$VPID" 2>/dev/null || true; }
trap cleanup EXIT

copy "$A"; STRAPI_DIR="$A" PORT="$PORT" RESET_DB=1 "$SHARED/bench/strapi/start.sh" >/dev/null
BASE_URL="http://127.0.0.1:$PORT" TOKEN="$TOKEN" N="$N" C=3 A=4 T=5 QUIET=1 node "$SHARED/bench/seed.mjs" >/dev/null
BASE_URL="http://127.0.0.1:$PORT" TOKEN="$TOKEN" IMG1="$HERE/red.png" IMG2="$HERE/blue.jpg" TXT="$HERE/note.txt" node "$HERE/seed-extras.mjs"
strapi "$A" export --no-encrypt -f "$WORK/strapi" >/dev/null
echo "strapi export: $WORK/strapi.tar.gz"

mkdir -p "$P"; cp -r "$ROOT/examples/blog/config" "$ROOT/examples/blog/src" "$P/"
cd "$ROOT"
node --import tsx src/app/cli/main.ts import --file "$WORK/strapi.tar.gz" --project "$P"
VTOKEN=$(node --import tsx src/app/cli/main.ts token create --name live --type full-access --project "$P" | tail -1)
PORT=$((PORT + 1)) node --import tsx src/app/cli/main.ts start "$P" >"$WORK/vellum.log" 2>&1 & VPID=$!
for _ in $(seq 1 300); do curl -fsS -o /dev/null "http://127.0.0.1:$((PORT + 1))/_health" 2>/dev/null && break; sleep 0.2; done
echo "== Strapi vs Vellum after vellum import"
node --import tsx test/transfer/live/compare.ts "http://127.0.0.1:$PORT" "$TOKEN" "http://127.0.0.1:$((PORT + 1))" "$VTOKEN"
curl -fsS -o /dev/null -H 'content-type: application/json' -d '{"identifier":"alice@example.test","password":"Alice-Passw0rd"}' "http://127.0.0.1:$((PORT + 1))/api/auth/local" && echo "alice signs in on Vellum with her Strapi password"
if [ "${RECORD:-0}" = 1 ]; then
  cp "$WORK/strapi.tar.gz" test/fixtures/strapi-archive/blog.tar.gz
  node --import tsx test/transfer/live/record.ts "http://127.0.0.1:$PORT" "$TOKEN" test/fixtures/strapi-archive/answers.json
fi

node --import tsx src/app/cli/main.ts export --file "$WORK/vellum.tar.gz" --project "$P"
copy "$B"; STRAPI_DIR="$B" PORT=$((PORT + 2)) RESET_DB=1 "$SHARED/bench/strapi/start.sh" >/dev/null
kill "$(cat "$B/strapi.pid")"; sleep 2
strapi "$B" import -f "$WORK/vellum.tar.gz" --force | tail -3
STRAPI_DIR="$B" PORT=$((PORT + 2)) "$SHARED/bench/strapi/start.sh" >/dev/null
echo "== Strapi vs a fresh Strapi after vellum export + strapi import"
node --import tsx test/transfer/live/compare.ts "http://127.0.0.1:$PORT" "$TOKEN" "http://127.0.0.1:$((PORT + 2))" "$TOKEN"
curl -fsS -o /dev/null -H 'content-type: application/json' -d '{"identifier":"alice@example.test","password":"Alice-Passw0rd"}' "http://127.0.0.1:$((PORT + 2))/api/auth/local" && echo "alice signs in on the new Strapi"
