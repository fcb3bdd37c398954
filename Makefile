# Every target sets itself up on a fresh machine: Debian packages, the venv, the project.
# `make demo` / `make ui` / `make dev` install only what they run (the project + its `replica`
# extra, Debian chromium); `make test` / `make bench` install everything (extra `dev`, which
# compiles llama-cpp-python from source for the LLM tests, PostgreSQL, tesseract); `make test-fast`
# installs extra `test` (no compiler), tesseract and pdflatex, and runs the tests that need none of
# chromium, Ray, PostgreSQL or the LLM server (pytest markers, pyproject / tests/conftest.py).
SHELL := /bin/bash
PY := .venv/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HASH := $(shell cat pyproject.toml replica/pyproject.toml | sha1sum | cut -c1-12)
STAMP := .venv/.installed-$(HASH)
STAMP_DEMO := .venv/.installed-demo-$(HASH)
STAMP_FAST := .venv/.installed-fast-$(HASH)
# The tests `make test-fast` leaves out: each marker names what a test needs beyond Python.
FAST_MARKERS := not (browser or ray or postgres or llm or slow)
# pdflatex typesets the full-text unit-test papers (tests/ocr); `make test` and `make test-fast` both.
# texlive-science: siunitx, whose `S` columns results tables use (tests/ocr/test_tables_layouts.py).
TEXLIVE_TEST := texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-science
# The demo's instance and storage, shared by `make demo` and `make ui` (scripts/demo_env.py).
DEMO_HOME := $(CURDIR)/var/demo/dagster_home
# `make dev` (the real OpenReview): its own instance and storage, never the demo's.
DEV_HOME := $(CURDIR)/.dagster_home
DEV_STORAGE ?= $(CURDIR)/var/storage

.PHONY: setup setup-demo setup-fast system-deps system-deps-demo system-deps-fast system-deps-bench demo ui test \
  test-fast bench bench-scale dev clean

# What the demo, `make ui` and `make dev` need: chromium (Playwright drives it to read /revisions).
system-deps-demo:
	@if ! command -v /usr/bin/chromium >/dev/null; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	    chromium fonts-dejavu-core; fi

# Everything the tests need as well: PostgreSQL (the production-instance test), tesseract-ocr (the
# `tesseract` OCR engine), texlive (pdflatex typesets the full-text unit-test papers in
# benchmarks/fulltext for tests/ocr/test_fulltext.py and `make bench`).
system-deps: system-deps-demo
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v tesseract >/dev/null \
	    || ! command -v pdflatex >/dev/null || ! kpsewhich siunitx.sty >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	    postgresql tesseract-ocr $(TEXLIVE_TEST); fi

# `make test-fast`: tesseract and pdflatex only (no chromium, no PostgreSQL: their tests are left out).
system-deps-fast:
	@if ! command -v tesseract >/dev/null || ! command -v pdflatex >/dev/null || ! kpsewhich siunitx.sty >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	    tesseract-ocr $(TEXLIVE_TEST); fi

# `make bench` only: the real papers' styles (benchmarks/fulltext_real: ICML/ACL/NeurIPS/PMLR
# sources) need latex-extra, science, publishers (jmlr.cls), plain-generic (soul), pictures,
# bibtex-extra, fonts-extra and cm-super (microtype's font expansion needs scalable T1 fonts).
# Kept out of `make test`, whose tests typeset only our own documents: fonts-extra alone is ~1 GB.
system-deps-bench: system-deps
	@if ! kpsewhich jmlr.cls soul.sty >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	    texlive-latex-extra texlive-science texlive-publishers texlive-plain-generic texlive-pictures \
	    texlive-bibtex-extra texlive-fonts-extra cm-super; fi

# The project and the replica's extra: prebuilt wheels only, no compiler.
# The replica is its own distribution (replica/pyproject.toml), outside the production wheel.
$(STAMP_DEMO): pyproject.toml replica/pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e . -e ./replica
	rm -f .venv/.installed-demo-* && touch $(STAMP_DEMO)

# The project, the replica and extra `test`: prebuilt wheels only, no compiler (no llama.cpp); and
# olmOCR-Bench (--no-deps: only its test classes are used, their imports are in extra `test`).
$(STAMP_FAST): pyproject.toml replica/pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]' -e ./replica
	$(PY) -m pip install -q --no-deps "$$(grep -o '^olmocr = "olmocr==[0-9.]*' pyproject.toml | cut -d'"' -f2)"
	rm -f .venv/.installed-fast-* .venv/.installed-demo-* && touch $(STAMP_FAST) $(STAMP_DEMO)

$(STAMP): pyproject.toml replica/pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	# llama-cpp-python (dev) builds from source: use both cores, skip its examples and tests, and
	# build for generic x86-64 (AVX2), not the build machine's CPU: with GGML_NATIVE (the default) on
	# a CPU with AMX/AVX-512 (this workplace's VMs have amx_int8), decoding any prompt of more than
	# one token segfaults in llama_decode, so every chat completion of the LLM tests crashed the server.
	# pip's wheel cache keys a built wheel on the sdist alone, not on CMAKE_ARGS: a wheel built
	# natively earlier on the same machine would be reused silently, so this one package is built
	# with --no-cache-dir (the CI run of f18a1e5 installed in a minute and its server segfaulted).
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF" \
	  $(PY) -m pip install -q --no-cache-dir "$$(grep -o 'llama-cpp-python\[server\]==[0-9.]*' pyproject.toml)"
	$(PY) -m pip install -q -e '.[dev]' -e ./replica
	# olmOCR-Bench's test classes judge the full-text unit tests (tests/ocr): olmocr without its own
	# requirements (its pipeline's), the few its bench/tests.py imports being in extra `test`
	$(PY) -m pip install -q --no-deps "$$(grep -o '^olmocr = "olmocr==[0-9.]*' pyproject.toml | cut -d'"' -f2)"
	rm -f .venv/.installed-* && touch $(STAMP) $(STAMP_DEMO) $(STAMP_FAST)

setup-demo: system-deps-demo $(STAMP_DEMO)
setup: system-deps $(STAMP)
setup-fast: system-deps-fast $(STAMP_FAST)

# Starts the OpenReview replica, materializes every asset of the replica partitions through
# `dagster asset materialize` into var/demo/ (instance + storage), prints rows per split, the
# line `corpus: <dir>` and how to open the UI on the same data (`make ui`).
demo: setup-demo
	$(PY) -m scripts.demo

# The replica (same data as the demo) + the Dagster UI, webserver and daemon (`dagster dev`), on
# the demo's instance and storage: http://127.0.0.1:3000 (UI_PORT=... to change).
ui: setup-demo
	$(PY) -m scripts.ui

# Everything (CI: .ci/run).
test: setup
	$(PY) -m pytest -q -p no:cacheprovider

# The loop for a change: every test that needs no browser, Ray, PostgreSQL or LLM server, and is
# not one of the long end-to-end runs (marker `slow`). On FAST_WORKERS processes (pytest-xdist), a
# test file to each (a module's fixtures are built once): the tests are CPU-bound, so two cores
# give about half the time of one. `make test` stays one process (Ray, chromium, PostgreSQL).
FAST_WORKERS ?= 2
test-fast: setup-fast
	$(PY) -m pytest -q -p no:cacheprovider -m "$(FAST_MARKERS)" -n $(FAST_WORKERS) --dist loadfile

# docs/running.md's screenshots (docs/screenshots/*.png) taken again from the UI test, on purpose:
# `make test` leaves them as they are.
screenshots: setup
	REVIEWBENCH_REFRESH_SCREENSHOTS=1 $(PY) -m pytest -q -p no:cacheprovider tests/ops/test_ui_backfill.py

bench: setup system-deps-bench
	$(PY) -m benchmarks.run_all

# One venue-year at 500 and 5,000 forums through every asset (most of an hour on two cores).
bench-scale: setup
	$(PY) -m benchmarks.scale_chain

# The Dagster UI against the real OpenReview (or wherever OPENREVIEW_* point), with its own instance
# (.dagster_home) and storage (var/storage, or REVIEWBENCH_STORAGE_ROOT); the demo's data is `make ui`.
dev: setup-demo
	@mkdir -p $(DEV_HOME) && cp dagster.yaml $(DEV_HOME)/dagster.yaml && $(PY) -m scripts.init_instance $(DEV_HOME)
	@echo "make dev: DAGSTER_HOME=$(DEV_HOME) REVIEWBENCH_STORAGE_ROOT=$${REVIEWBENCH_STORAGE_ROOT:-$(DEV_STORAGE)}"
	@echo "make dev: OpenReview API v2 $${OPENREVIEW_API_V2_URL:-https://api2.openreview.net} (the demo's replica data: make ui)"
	DAGSTER_HOME=$(DEV_HOME) REVIEWBENCH_STORAGE_ROOT=$${REVIEWBENCH_STORAGE_ROOT:-$(DEV_STORAGE)} \
	  .venv/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p $${UI_PORT:-3000}

clean:
	rm -rf var .dagster_home
