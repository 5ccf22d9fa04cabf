"""What can go wrong with an index directory, each named so the CLI and TUI can say it plainly."""


class IndexUnusableError(RuntimeError):
    """The index directory cannot be used as asked (wrong embedder, newer format, …)."""


class IndexLockedError(IndexUnusableError):
    """Another process is writing the index (one writer at a time; readers are never blocked)."""


class IndexReadOnlyError(IndexUnusableError):
    """The index may not be written by this process (read-only mount, another user's files)."""


class StoreWriteError(IndexUnusableError):
    """A write to the index failed: disk full, quota, file-size limit, LMDB's map full, or an
    I/O error (LMDB reports a short write to a full disk as one). The transaction was aborted:
    what was committed before stays, nothing half-written shows."""
