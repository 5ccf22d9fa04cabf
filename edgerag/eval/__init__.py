"""Evaluation: benchmark datasets, metrics (Coverage, Recall@k, EM, F1), and the runner.

datasets.py  benchmark folders: corpus.jsonl and questions.jsonl
metrics.py   Coverage, Recall@k, EM and F1, SQuAD-normalised
cost.py      what a method's index cost: LLM tokens and seconds per stage
runner.py    methods over a benchmark's questions, into a result file
report.py    result files rendered for people: Markdown tables and plots
"""
