# Tavla: the menu. `make run` starts the platform locally; `make test` runs every test.
# Both set up what they need (a virtual environment, npm packages) by themselves.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast bench synth lint fmt openapi setup clean verify-draw
.PHONY: web  # issue 8

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

test: setup lint web ## every test: rules, services, infrastructure, end to end
	$(BIN)/python -m infra.openapi --check
	$(BIN)/pytest -p no:cacheprovider --cov=tavla.rules --cov-branch --cov-report=term:skip-covered --cov-fail-under=95 tests

test-fast: setup ## rules and services only
	$(BIN)/pytest tests/unit tests/service

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy shared functions infra $(wildcard local) tests bench tools

fmt: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup ## benchmarks: pairing, brackets, results, cold start, DynamoDB calls per request
	PYTHONPATH=shared:. $(BIN)/python -m bench

synth: setup ## synthesize the CDK stack into cdk.out/ (offline, no Docker)
	$(BIN)/python -m infra.app

verify-draw: setup ## recompute a tournament's published draws from public data: API=<base url> TOURNAMENT=<id>
	PYTHONPATH=shared:. $(BIN)/python -m tools.verify_draw $(API) $(TOURNAMENT)

web: node_modules/.installed ## build the mobile web front end into web/dist/ (API types from the OpenAPI document, tsc, vite)
	npm run --silent web:build

openapi: setup ## regenerate functions/openapi/openapi.json from the routers
	$(BIN)/python -m infra.openapi

clean:
	rm -rf $(VENV) node_modules build cdk.out .local web/dist web/src/api/schema.d.ts
