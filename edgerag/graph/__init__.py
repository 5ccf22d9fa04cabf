"""Graphs over the index: KNN chunk graph, PageRank, keyword bipartite graph, skeleton KG."""
