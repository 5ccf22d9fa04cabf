"""The index directory: LMDB tables (the truth) and hnswlib vector sets (rebuildable caches)."""

from .errors import IndexError_, IndexLockedError, IndexReadOnlyError, StoreWriteError
from .index import FORMAT_VERSION, Index

__all__ = ["FORMAT_VERSION", "Index", "IndexError_", "IndexLockedError", "IndexReadOnlyError", "StoreWriteError"]
