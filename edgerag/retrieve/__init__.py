"""Retrievers: one module per method; each turns a query into a `Context` within budget λ.

A retriever is a plain function ``(index, embedder, query, budget, settings) -> Context``;
methods that call the model at query time also take ``llm=`` (the metered local model).
The method registry (methods.py) names them and says what each reads.

    text.py       Text-RAG, the dense baseline (exact search, or hnswlib past its limit)
    knng.py       KNNG-RAG over the KNN chunk graph
    keyword.py    KET-RAG's keyword channel (Alg. 4)
    kg_search.py  KG local search over a skeleton KG (KET-RAG Alg. 2)
    ket.py        KET-RAG (§4.2): θ of λ from the KG, the rest from the keyword channel
    hybrid.py     Hybrid-RAG: half from Text-RAG, half from the KG
    concept.py    G2ConS concept retrieval (§3.3)
    g2cons.py     G2ConS (§3.4): concepts and the core KG, weighted by λ_w
    lightrag.py   LightRAG's local, global and hybrid modes (§3.2)
    terag.py      TERAG (§3.3): Personalized PageRank from the query's names
    bridge.py     edgerag's entity bridges, `bridge` and `bridge-ppr`
    units.py      scored ids → `Unit`s, for every retriever
"""
