"""The index directory: LMDB tables (the truth) and hnswlib vector sets (rebuildable caches).

tables.py    named LMDB tables of JSON records
index.py     `Index`: the manifest, the tables, the vector sets and the writer lock
vectors.py   `VectorSet`: vectors in LMDB, searched exactly or by an hnswlib cache
stages.py    built stages (graphs, arrays) with what they were built from
ledger.py    the token ledger and the LLM-call cache
errors.py    what can go wrong with an index, each named for the CLI and the TUI
index_settings.py  the settings an index opens with: the environment's, then its manifest's
"""

from .errors import IndexLockedError, IndexReadOnlyError, IndexUnusableError, StoreWriteError
from .index import FORMAT_VERSION, Index

__all__ = ["FORMAT_VERSION", "Index", "IndexLockedError", "IndexReadOnlyError", "IndexUnusableError", "StoreWriteError"]
