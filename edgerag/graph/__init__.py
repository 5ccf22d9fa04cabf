"""Graphs over the index, each built once and stored as a stage.

knn.py            the KNN chunk graph (KET-RAG Alg. 3, lines 2–7)
pagerank.py       PageRank and Personalized PageRank: power iteration and local push
core_chunks.py    the core chunks (β, κ) that go through LLM extraction
bipartite.py      the keyword–text bipartite graph (KET-RAG Alg. 3, lines 10–15)
kg.py             the skeleton KG from the core chunks' extractions
concept_graph.py  G2ConS's concept graph
names_graph.py    TERAG's graph of passages and the names in them
links.py          the passage–key link graph behind `bridge` and `bridge-ppr`
"""
