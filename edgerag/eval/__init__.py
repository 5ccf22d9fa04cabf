"""Evaluation: benchmark datasets, metrics (Coverage, Recall@k, EM, F1), and the runner."""
