"""Readers: files and folders in, `Document`s out; bad input reported by name, never fatal."""

from .readers import SUPPORTED_SUFFIXES, Skipped, iter_documents

__all__ = ["SUPPORTED_SUFFIXES", "Skipped", "iter_documents"]
