"""Retrievers: one module per method; each turns a query into a `Context` within budget λ.

A retriever is a plain function ``(index, embedder, query, budget, settings) -> Context``;
methods that call the model at query time also take ``llm=`` (the metered local model).
The method registry (methods.py) names them and says what each reads.
"""
