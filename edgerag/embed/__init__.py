"""The embedder: sentence vectors, offline, on a CPU or GPU.

embedder.py  `Embedder`: the pip-shipped MiniLM or a model folder, its backend (torch,
             onnx, onnx-int8) and the model id an index records
onnx.py      the same model exported to ONNX, float32 or int8, and run by ONNX Runtime
pieces.py    sub-chunk and sentence vectors embedded when first needed, and stored
"""
