"""The index directory: LMDB tables (the truth) and hnswlib vector sets (rebuildable caches)."""

from .index import FORMAT_VERSION, Index, IndexError_, IndexLockedError

__all__ = ["FORMAT_VERSION", "Index", "IndexError_", "IndexLockedError"]
