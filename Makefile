# clubcomp: two commands do all the set-up on a fresh machine.
#   make run   - virtual environment, install, migrate, demo data when empty, serve on :8000
#                with a task worker beside the server (manage.py devserver)
#   make test  - install what the tests need and run the whole suite (DATABASE_URL selects the DB)

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Fewer simulations than production's 1,000, so the demo's chances come within a minute or two.
CHANCES_SIMULATIONS ?= 200
# pip warns about running as root when it is not in a virtual environment; ours always is.
export PIP_ROOT_USER_ACTION := ignore

.PHONY: run test static install install-dev constraints browser lint typecheck format migrate demo messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# constraints.txt pins the versions CI tested, so a fresh clone installs the same ones.
$(VENV)/.installed: pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install --quiet -c constraints.txt -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@ $(VENV)/.installed

# After changing dependencies in pyproject.toml: install, then pin what was installed.
constraints: install-dev
	{ head -n 2 constraints.txt; $(BIN)/pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py seed_demo --if-empty
	@echo ""
	@echo "  clubcomp serves on http://$(HOST):$(PORT)/"
	@echo "  Demo TD login: wedstrijdleider / schaak-demo-2026 (club admin: clubbeheerder, site admin: beheerder; same password)"
	@echo "  Demo member login: lid / schaak-demo-2026 (his page: /me/)"
	@echo ""
	@echo "  A task worker runs beside the server (the chances, the mail); Ctrl-C stops both."
	@echo ""
	DEBUG=1 CHANCES_SIMULATIONS=$(CHANCES_SIMULATIONS) $(BIN)/python manage.py devserver $(HOST):$(PORT)

# Browser tests drive Debian's Chromium; as root we install it, otherwise they are skipped with a note.
browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get install -y -q chromium chromium-driver >/dev/null 2>&1 || \
	     (apt-get update -q >/dev/null && apt-get install -y -q chromium chromium-driver >/dev/null)) || \
	    echo "note: could not install chromium; browser tests will be skipped"; \
	  else echo "note: chromium/chromedriver missing; browser tests will be skipped"; fi; \
	fi

# The tests serve the static files as production does: collected (hashed names, manifest,
# compressed copies) into STATIC_ROOT. Collected again only when a file of static/ or an
# installed package changed; the tests refuse to start on a stale collection.
STATIC_ROOT ?= $(CURDIR)/staticfiles
$(STATIC_ROOT)/staticfiles.json: $(VENV)/.installed-dev $(shell find static -type f 2>/dev/null)
	STATIC_ROOT=$(STATIC_ROOT) DJANGO_SETTINGS_MODULE=clubcomp.settings_test \
	  $(BIN)/python manage.py collectstatic --noinput --clear -v0
	touch $@

static: $(STATIC_ROOT)/staticfiles.json

# The suite runs on every core (pytest-xdist); each worker has its own test database.
test: install-dev browser static
	$(BIN)/python -m pytest -n auto

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The pure packages are checked --strict; the Django side with the django-stubs plugin.
typecheck: install-dev
	$(BIN)/mypy --strict competition/scoring competition/pairing competition/formats competition/simulation competition/rating
	$(BIN)/mypy competition clubcomp

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

messages: install-dev
	DEBUG=1 $(BIN)/python manage.py makemessages -l nl --ignore=.venv --ignore=staticfiles
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis
