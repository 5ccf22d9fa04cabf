"""LLM extraction: prompts and tolerant parsers, one module per extraction style.

kg.py              entities and relations for the skeleton KG (KET-RAG Alg. 1)
names.py           TERAG's named entities (§3.1)
query_keywords.py  LightRAG's low- and high-level query keywords (§3.2)
"""
