# The two commands a fresh machine needs:
#   make demo   set up .venv, index the bundled sample corpus, answer a sample question
#   make test   set up .venv (with pytest) and run the whole test suite
# Setup compiles llama-cpp-python from source the first time (about 10-20 minutes on 2 cores;
# pip's wheel cache makes later setups fast).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.edgerag-installed

.PHONY: demo test setup clean-index

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch first, pinned: the CPU build from local disk. Anything unpinned would pull CUDA.
	$(BIN)/pip install --quiet torch==2.13.0
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/edgerag demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

clean-index:
	rm -rf .edgerag
