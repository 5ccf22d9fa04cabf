"""Batch work on a Ray cluster: the only package that imports Ray (docs/distributed.md).

ray_pool.py  `RayOptions` and a pool of workers, each loading its model once
indexing.py  embedding and KG-extraction workers, and the remote embedder indexing uses
"""

from .ray_pool import RayOptions

__all__ = ["RayOptions"]
