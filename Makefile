# The two commands of the README: `make demo` and `make test`. Each sets up .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_WORKERS ?= 2
NOJIT_TESTS := tests/test_search_kernels.py tests/test_search_sh3d.py

.PHONY: install demo test test-slow test-nojit bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@command -v cadical >/dev/null || command -v minisat >/dev/null || (apt-get update -qq && apt-get install -y -qq cadical >/dev/null) || echo "warning: no DIMACS solver binary (cadical); tests/test_encoders_dimacs.py needs one"
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "warning: no chromium; the browser tests (tests/test_game_web.py) need Debian's chromium: apt-get install -y chromium"
	@echo "compiling the numba kernels once (cached on disk, so later runs start at once)"
	$(BIN)/python -c "from mjsat.search.solver import warm_up; warm_up()"
	@touch $(STAMP)

install: $(STAMP)

# Deal a seeded random turtle board, solve it, print the verified answer and a picture.
demo: $(STAMP)
	$(BIN)/mjsat solve --layout turtle --seed 1 --time-limit 60 --show

# The whole default test suite (under ten minutes on two cores); slow checks excluded.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) -m "not slow"

# The long checks, marked `slow`.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) -m slow

# The search kernels' tests with numba's compiler off: the kernel bodies run as Python, so
# coverage counts them (add `--cov=mjsat.search` with pytest-cov installed).
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -p no:xdist $(NOJIT_TESTS)

# Benchmarks: print tables and write JSON under benchmarks/results/.
bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
