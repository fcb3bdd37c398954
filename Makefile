# Every target sets itself up on a fresh machine: Debian chromium, the venv, the project.
SHELL := /bin/bash
PY := .venv/bin/python
export DAGSTER_HOME := $(CURDIR)/.dagster_home
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
STAMP := .venv/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)

.PHONY: setup system-deps demo test bench dev clean

# Debian packages: chromium (Playwright drives it), PostgreSQL (the production-instance test),
# tesseract-ocr (the `tesseract` OCR engine), texlive (pdflatex typesets the full-text evaluation
# papers in benchmarks/fulltext for `make bench` and tests/ocr/test_fulltext.py).
system-deps:
	@if ! command -v /usr/bin/chromium >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	    || ! command -v tesseract >/dev/null || ! command -v pdflatex >/dev/null; then \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq \
	    chromium fonts-dejavu-core postgresql tesseract-ocr \
	    texlive-latex-base texlive-latex-recommended texlive-fonts-recommended; fi

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	# llama-cpp-python (dev) builds from source: use both cores, skip its examples and tests.
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) CMAKE_ARGS="-DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF" \
	  $(PY) -m pip install -q -e '.[dev]'
	rm -f .venv/.installed-* && touch $(STAMP)

dagster-home:
	@mkdir -p $(DAGSTER_HOME) && cp dagster.yaml $(DAGSTER_HOME)/dagster.yaml

.PHONY: dagster-home
setup: system-deps $(STAMP) dagster-home

# Starts the OpenReview replica, materializes every asset of one replica partition through
# `dagster asset materialize`, prints rows per split; the last line is `corpus: <dir>`.
demo: setup
	$(PY) -m scripts.demo

test: setup
	$(PY) -m pytest -q -p no:cacheprovider

bench: setup
	$(PY) -m benchmarks.run_all

# The Dagster UI on the replica-free default config (point OPENREVIEW_* at a replica or the real site).
dev: setup
	.venv/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p 3000

clean:
	rm -rf var .dagster_home
