"""The index directory: LMDB tables (the truth) and hnswlib vector sets (rebuildable caches)."""

from .errors import IndexLockedError, IndexReadOnlyError, IndexUnusableError, StoreWriteError
from .index import FORMAT_VERSION, Index

__all__ = ["FORMAT_VERSION", "Index", "IndexLockedError", "IndexReadOnlyError", "IndexUnusableError", "StoreWriteError"]
