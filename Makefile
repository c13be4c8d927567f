# The two commands of the README: `make demo` and `make test`. Each sets up .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_WORKERS ?= 2
NOJIT_TESTS := tests/test_search_kernels.py tests/test_search_sh3d.py tests/test_search_batch.py \
	tests/test_search_kernels_bits.py --deselect tests/test_search_kernels_bits.py::test_search_answers_alike_with_either_test
# 1: `make check` fails when a file is not formatted. 0: it reports them and passes.
# 0 only to see the list without failing.
FORMAT_STRICT ?= 1

.PHONY: install demo test check lint format-check typecheck format test-slow test-nojit bench docs clean

# The editable install: setuptools' notice "Editable installation ... folders in your working
# directory with the same name as your package" is filtered, because those folders (mjsat/,
# search/, ...) are the package's own sources, mapped by pyproject.toml's package-dir.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip install --quiet -e '.[test,check,docs]'
	@command -v cadical >/dev/null || command -v minisat >/dev/null || (apt-get update -qq && apt-get install -y -qq cadical >/dev/null) || echo "warning: no DIMACS solver binary (cadical); tests/test_encoders_dimacs.py needs one"
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "warning: no chromium; the browser tests (tests/test_game_web.py) need Debian's chromium: apt-get install -y chromium"
	@command -v node >/dev/null || (apt-get update -qq && apt-get install -y -qq nodejs >/dev/null) || echo "warning: no node; tests/test_bench_bondt.py needs Node.js: apt-get install -y nodejs"
	@echo "compiling the numba kernels once (cached on disk, so later runs start at once)"
	$(BIN)/python -c "from mjsat.search.solver import warm_up; warm_up()"
	@touch $(STAMP)

install: $(STAMP)

# Deal a seeded random turtle board, solve it, print the verified answer and a picture.
demo: $(STAMP)
	$(BIN)/mjsat solve --layout turtle --seed 1 --time-limit 60 --show

# The static checks, then the whole default test suite (under ten minutes on two cores);
# slow checks excluded.
test: check
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) -m "not slow"

# Static checks (DEVELOPERS.md, "Static checks"): ruff's lint and format check over the
# repository, mypy over the package `mjsat` with its sub-packages in top-level folders.
check: lint format-check typecheck

lint: $(STAMP)
	$(BIN)/ruff check .

format-check: $(STAMP)
	@if out=$$($(BIN)/ruff format --check . 2>&1); then echo "$$out" | tail -n 1; \
	elif [ "$(FORMAT_STRICT)" = 1 ]; then echo "$$out"; exit 1; \
	else echo "format-check (reporting only, FORMAT_STRICT=0): $$(echo "$$out" | tail -n 1); \`make format\` applies it"; fi

# mypy through a link tree under build/typing that has the installed shape (tools/typecheck.py).
typecheck: $(STAMP)
	$(BIN)/python tools/typecheck.py

# Rewrite the files in ruff's format (import order is the linter's rule I: `ruff check --fix`).
format: $(STAMP)
	$(BIN)/ruff format .

# The long checks, marked `slow` (worksteal: an idle worker takes tests queued behind a long one).
test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist worksteal -m slow

# The search kernels' tests with numba's compiler off: the kernel bodies run as Python, so
# coverage counts them (add `--cov=mjsat.search` with pytest-cov installed).
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -p no:xdist $(NOJIT_TESTS)

# The docs site into docs/_build/html: offline, warnings as errors; the tutorials' examples
# run during the build (docs/_ext/mjsat_docs.py). `make test` builds it too (tests/test_docs.py).
docs: $(STAMP)
	$(BIN)/python -m sphinx -b html -E -W --keep-going -q docs docs/_build/html
	@echo "docs: docs/_build/html/index.html"

# Benchmarks: print tables and write JSON under benchmarks/results/.
bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info docs/_build docs/_generated docs/reference/generated docs/reference/api.rst
