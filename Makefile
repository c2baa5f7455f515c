# The two set-up commands: `make run` serves the API, `make test` runs every check.
# Both install what is missing first (npm packages, the Schemathesis venv).
SHELL := /bin/bash
.DEFAULT_GOAL := help
export NODE_OPTIONS ?= --max-old-space-size=4096

NODE_STAMP := node_modules/.oads-installed
VENV_STAMP := .venv/.oads-installed

.PHONY: help install venv codegen check-generated check-generators lint-spec typecheck lint format format-check test-unit test-integration schemathesis docs build explorer browser pgbouncer run migrate test bench simulate static-checks code-checks sdk

help:
	@echo "make run    - install, build dist/, the docs and the explorer, migrate, seed on first start, serve on 127.0.0.1:8080 (docs at /docs, explorer at /explorer)"
	@echo "make test   - install, then spec lint, generated check, generator check, typecheck, lint, unit, integration, contract, Schemathesis"
	@echo "make sdk    - the SDKs' release artefacts in build/sdk: npm tarball, Python wheel and sdist"
	@echo "make bench  - benchmarks (bench/), figures as ratios against a baseline measured in the same run"

$(NODE_STAMP): package.json package-lock.json
	# npm install honours package-lock.json; npm ci is not used because this npm omits other
	# platforms' optional packages from the lock and then refuses it. --prefer-offline: what the
	# npm cache holds is used without asking the registry whether it changed (a lock's exact
	# versions do not change), anything missing is fetched as usual; a cached package list older
	# than a version the lock names fails it (npm does not refetch it then), so that case installs
	# again as before.
	npm install --no-audit --no-fund --prefer-offline || npm install --no-audit --no-fund
	touch $@

install: $(NODE_STAMP)

# The venv holds Schemathesis and the Python SDK's generator and run-time packages.
$(VENV_STAMP): test/contract/requirements.txt sdk/python/requirements-dev.txt
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/pip install --quiet --disable-pip-version-check -r test/contract/requirements.txt -r sdk/python/requirements-dev.txt
	touch $@

venv: $(VENV_STAMP)

codegen: install venv
	bash scripts/codegen
	bash scripts/codegen-python

# The SDKs' release artefacts in build/sdk (scripts/build-sdk): the npm tarball of sdk/typescript
# (npm pack) and the wheel and sdist of sdk/python (python -m build, no isolation: nothing fetched).
# Both carry the contract's info.version. test/integration/sdk-packages.test.ts builds and installs them.
sdk: install venv
	bash scripts/build-sdk build/sdk

# Generated code is output only: a fresh codegen must leave generated/ and the SDKs (sdk/) unchanged.
check-generated: install venv
	bash scripts/codegen
	bash scripts/codegen-python
	@if [ -n "$$(git status --porcelain -- generated sdk)" ]; then \
	  git status --porcelain -- generated sdk; \
	  echo "generated/ or sdk/ differs from a fresh codegen of openapi/v1.yaml: run 'make codegen' and commit" >&2; exit 1; fi

# The contract, and the document /v1/openapi.json serves, as client generators read them:
# openapi-python-client and openapi-typescript on both; on the served one also @hey-api/openapi-ts,
# oapi-codegen (Go, `go build`) and openapi-generator's Go (`go build`) and Java native (`mvn compile`)
# clients, both generators installed pinned into build/tools by scripts/generator-tools (go, java and
# mvn are on the machine). No warning, no client that does not build, no enum set declared twice, no
# auto-named model, no float32, no unresolvable $ref (findings also in build/generator-findings.txt).
# The check's own tests first: it finds each fault in a small contract and nothing once they are
# repaired (the Go enum collision with openapi-generator, installed first).
check-generators: install venv
	bash scripts/generator-tools >/dev/null
	cd sdk/python && ../../.venv/bin/python -m pytest -q -p no:cacheprovider tests/test_check_generators.py
	bash scripts/check-generators build/generator-findings.txt

lint-spec: install
	npx redocly lint openapi/v1.yaml

# The SDK is also checked as its own project: no Node types, so it stays usable wherever fetch is.
typecheck: install
	npx tsc --noEmit -p tsconfig.json
	npx tsc --noEmit -p sdk/typescript/tsconfig.json
	npx tsc --noEmit -p explorer/tsconfig.json

lint: install
	npx eslint --max-warnings 0 .

# Prettier lays out the hand-written TypeScript and JavaScript (.prettierrc.json; what it leaves alone,
# .prettierignore): `make format` writes it, make test checks that nothing is left to format.
format: install
	npx prettier --write --log-level warn .

format-check: install
	npx prettier --check --log-level warn .

# The static checks side by side: each is one single-threaded process, so on two cores they take
# about the longest one's time instead of the sum. typecheck and lint read generated/, which
# check-generated rewrites: they start once it is done (the inner make shares the outer's three
# job slots). --output-sync keeps each check's output whole.
static-checks: install venv
	$(MAKE) --no-print-directory -j3 --output-sync=target lint-spec check-generators format-check code-checks

code-checks: check-generated
	$(MAKE) --no-print-directory --output-sync=target typecheck lint

RESULTS := build/test-results

# The tiers on PostgreSQL run at least two files at once. vitest's default is one fewer than the
# cores: a single file at a time on a 2-core machine, while much of an integration file waits (on
# PostgreSQL, a shutdown grace, an export's heartbeat) and another file's work fills those waits.
# The units run two files at once too: with vitest's default one file at a time, the second core
# idled through them.
#
# Each worker runs its files one after another in the same process (--no-isolate): a file's imports
# (the service's whole module tree, through vite's transform) are then made once per worker, not
# once per file. Measured back to back on a machine otherwise idle: the DB tiers isolated 590 s
# wall (collect 147 s), --no-isolate 503 s (collect 34 s; that run also had two test set-ups
# trimmed, worth about 20 s of the wall by their files' times); the unit tier, same files,
# 131 -> 102 s. What the files share then is module state, which is memos of pure functions
# (calendar days, session spans, OPRA codes, statement names); each service a file starts keeps its
# caches to itself, nothing mocks modules, and the process-wide handlers (src/lifecycle.ts) are
# installed only by src/main.ts, which the tests start as child processes. (A run with the flag
# before the market templates were copyable again was inconclusive: every file then loaded its
# market, and the load's time hid the imports' saving.)
DB_TEST_WORKERS ?= $(shell node -p "Math.max(2, require('os').availableParallelism() - 1)" 2>/dev/null || echo 2)

test-unit: install
	mkdir -p $(RESULTS)
	npx vitest run --project unit --maxWorkers=$(DB_TEST_WORKERS) --no-isolate --reporter=default --reporter=json --outputFile.json=$(RESULTS)/unit.json

test-integration: install venv explorer browser pgbouncer
	mkdir -p $(RESULTS)
	npx vitest run --project integration --project contract --project reliability --project deployment --maxWorkers=$(DB_TEST_WORKERS) --no-isolate --passWithNoTests --reporter=default --reporter=json --outputFile.json=$(RESULTS)/integration.json

# The service under Schemathesis runs compiled (dist/, as make run starts it): through tsx, its
# start and the seed's simulator workers transpiled every source again.
schemathesis: install venv build
	mkdir -p $(RESULTS)
	bash scripts/schemathesis $(RESULTS)

# The docs page is built from the contract as /v1/openapi.json serves it (build/openapi.json): with
# each operation's response example (openapi/examples, `make examples`) and request samples (src/docs/).
DOCS_INPUTS := openapi/v1.yaml openapi/examples $(wildcard openapi/examples/*.json) $(wildcard src/docs/*.ts) $(wildcard src/api-contract/*.ts) src/json-ref.ts $(wildcard src/parameters/*.ts) scripts/docs-document.ts scripts/build-docs redocly.yaml

build/docs/index.html: $(DOCS_INPUTS) $(NODE_STAMP)
	bash scripts/build-docs build/docs build/openapi.json

docs: build/docs/index.html

# The response examples, captured from the service on the simulated market (not part of make test,
# which checks them against the contract): rerun when a response's shape changes, and commit.
.PHONY: examples
examples: install
	npx tsx scripts/capture-examples.ts

# The explorer page (explorer/, served at /explorer): its script with uPlot bundled by esbuild and
# its styles, beside its HTML, in build/explorer (scripts/build-explorer.ts).
EXPLORER_PAGE := build/explorer/index.html
EXPLORER_INPUTS := $(shell find explorer -type f) scripts/build-explorer.ts

$(EXPLORER_PAGE): $(EXPLORER_INPUTS) $(NODE_STAMP)
	npx tsx scripts/build-explorer.ts build/explorer

explorer: $(EXPLORER_PAGE)

# Debian's chromium, which the explorer's browser test drives (test/integration/explorer.test.ts),
# installed with apt when missing (through sudo when not root).
browser:
	@test -x /usr/bin/chromium || { echo "Installing Debian's chromium for the explorer's browser test"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends chromium; }

# Debian's pgbouncer, which the deployment tier starts in front of its primary (test/deployment/pooler.test.ts),
# installed with apt when missing (through sudo when not root).
pgbouncer:
	@test -x /usr/sbin/pgbouncer || { echo "Installing Debian's pgbouncer for the deployment tier's PgBouncer test"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends pgbouncer; }

# The service compiled to JavaScript (scripts/build): rebuilt when a source, a folder's list of
# files (one added or deleted) or the build's settings change.
BUILD_STAMP := dist/.oads-built
BUILD_INPUTS := $(shell find src db/migrations -type d -o -name '*.ts' ! -name '*.test.ts') tsconfig.json scripts/build

$(BUILD_STAMP): $(BUILD_INPUTS) $(NODE_STAMP)
	bash scripts/build

build: $(BUILD_STAMP)

migrate: install
	npx tsx src/cli/migrate.ts

simulate: install
	npx tsx src/cli/simulate.ts

# The service runs from dist/ once it is built (esbuild: a fraction of a second); the docs page and
# the explorer are made meanwhile, at a lower priority (nice 10: the first start's seed keeps both
# cores busy, and the API comes first; redocly takes the idle time), and are served at /docs and
# /explorer as soon as they are there.
run: install
	@$(MAKE) --no-print-directory build
	@nice -n 10 $(MAKE) --no-print-directory -j2 docs explorer & node dist/src/main.js

# Plain output (no colour codes) for logs and CI. The last line is the whole run's count, in
# pytest's closing form: "===== N passed in Ts =====" (failures and skips named when there are any).
#
# The tiers run one after another. The DB tiers and Schemathesis side by side (an inner make -j2) were
# measured in three runs at 500, 691 and 656 s for both, against 645 s one after the other: no
# reliable gain on two cores, and every test file near the start of the tiers ran up to twice as long.
test test-unit test-integration schemathesis: export NO_COLOR := 1
test: install venv static-checks test-unit test-integration schemathesis
	@node --import tsx scripts/test-summary.ts $(RESULTS)

bench: install
	npx tsx bench/platform/run.ts
	npx tsx bench/ingest/run.ts
	npx tsx bench/trades/run.ts
	npx tsx bench/flow-totals/run.ts
	npx tsx bench/volatility/run.ts
	npx tsx bench/volatility/solver.ts
	npx tsx bench/isolation/run.ts
	npx tsx bench/positioning/run.ts
	npx tsx bench/live/run.ts
	npx tsx bench/stream/run.ts

# The soak (issue #20): 20 accounts at their limits and a bad-key flood for SOAK_SECONDS (180) on
# the default workers; exits 1 when a goal fails. Not part of `make bench` or `make test`.
.PHONY: bench-soak
bench-soak: install
	npx tsx bench/soak/run.ts
