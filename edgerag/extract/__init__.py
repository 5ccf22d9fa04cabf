"""LLM extraction: prompts and tolerant parsers, one module per extraction style."""
