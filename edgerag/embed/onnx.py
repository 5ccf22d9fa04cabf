"""The same sentence-transformers model run by ONNX Runtime with int8 weights (issue #32).

On 2 CPU cores it embeds the bundled sample's chunks at 149 texts/s where torch manages about
36, and indexes MuSiQue dev with every piece 3.9× faster (avx512f host; docs/benchmarks.md,
"A faster embedder"). The model is exported
once, locally, from the pip-shipped weights (nothing is downloaded): torch traces the
transformer with the model's pooling and the L2 normalisation inside the graph, and ONNX
Runtime's dynamic quantisation stores the weights of every MatMul as int8, one scale per output
channel (per-tensor scales cost more: mean cosine to torch 0.957 against 0.994; the embedding
lookup stays float). The exported file is kept under `models.cache_dir` ``/embedders``, named by
the model's weights, so later runs load it in about a second without importing torch.

Only models made of a Transformer, a mean or CLS Pooling and optionally a Normalize are
exported; others stay on torch (`exportable`).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import warnings
from pathlib import Path

import numpy as np

RECIPES = {
    "onnx": "float32 weights and arithmetic: torch's vectors to float rounding, on every CPU",
    "onnx-int8": "int8 weights, per output channel, and int8 activations quantised per call",
}
"""The backends this module runs, each an exported file of its own (`exported_path`)."""


class OnnxExportError(RuntimeError):
    pass


def _modules(path: Path) -> list[str]:
    try:
        return [m["type"].rsplit(".", 1)[-1] for m in json.loads((path / "modules.json").read_text())]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _pooling(path: Path) -> str | None:
    """``mean`` or ``cls`` from the model's Pooling config, else None (not exportable)."""
    for cfg in sorted(path.glob("*Pooling*/config.json")):
        c = json.loads(cfg.read_text())
        modes = [k for k, v in c.items() if k.startswith("pooling_mode") and v]
        if modes == ["pooling_mode_mean_tokens"]:
            return "mean"
        if modes == ["pooling_mode_cls_token"]:
            return "cls"
    return None


def exportable(path: Path) -> str | None:
    """Why the model at ``path`` cannot run here (None when it can): the ONNX graph holds a
    Transformer, its Pooling (mean or CLS) and a normalisation, nothing else."""
    mods = _modules(path)
    if mods[:2] != ["Transformer", "Pooling"] or set(mods[2:]) - {"Normalize"}:
        return f"its modules are {mods or 'unknown'}; the ONNX path runs Transformer → Pooling (→ Normalize) only"
    if _pooling(path) is None:
        return "its pooling is neither mean nor CLS"
    if not (path / "tokenizer.json").is_file():
        return "it has no tokenizer.json"
    return None


def exported_path(cache: Path, weights_id: str, backend: str = "onnx-int8") -> Path:
    """Where the model ``weights_id`` exported for ``backend`` is kept (``-int8.onnx`` for
    onnx-int8, the name it always had; ``-fp32.onnx`` for onnx)."""
    suffix = {"onnx": "fp32", "onnx-int8": "int8"}[backend]
    return cache / "embedders" / f"{weights_id.replace('@', '-')}-{suffix}.onnx"


def export(path: Path, target: Path, backend: str = "onnx-int8") -> Path:
    """Export the model at ``path`` to ``target`` for ``backend`` (one of `RECIPES`), atomically."""
    why = exportable(path)
    if why:
        raise OnnxExportError(f"{path} cannot be exported to ONNX: {why}")
    try:
        import torch
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise OnnxExportError(f"exporting to ONNX needs torch, onnx and onnxruntime: {e}") from e

    model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    transformer = model[0].auto_model.eval()
    names = list(model.tokenizer.model_input_names)
    cls = _pooling(path) == "cls"

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, *inputs):
            feed = dict(zip(names, inputs))
            hidden = self.transformer(**feed).last_hidden_state
            if cls:
                pooled = hidden[:, 0]
            else:
                mask = feed["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=-1)

    sample = model.tokenizer(["an example", "a second, longer example"], padding=True, return_tensors="pt")
    target.parent.mkdir(parents=True, exist_ok=True)
    quiet = logging.getLogger().level
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on BERT's code paths, not ours to act on
        logging.getLogger().setLevel(logging.ERROR)  # onnxruntime's "consider pre-processing"
        fp32, int8 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        axes = {n: {0: "batch", 1: "tokens"} for n in names} | {"embedding": {0: "batch"}}
        with torch.no_grad():
            torch.onnx.export(
                Pooled().eval(),
                tuple(sample[n] for n in names),
                str(fp32),
                input_names=names,
                output_names=["embedding"],
                dynamic_axes=axes,
                opset_version=17,
                dynamo=False,
            )
        try:
            if backend == "onnx-int8":
                quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"], per_channel=True)
        finally:
            logging.getLogger().setLevel(quiet)
        os.replace(int8 if backend == "onnx-int8" else fp32, target)
    return target


class OnnxModel:
    """An exported model behind the few calls `Embedder` makes of a SentenceTransformer
    (``encode``, ``tokenizer``, ``max_seq_length``, ``get_embedding_dimension``)."""

    def __init__(self, onnx_file: Path, model_dir: Path, threads: int | None = None) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from ..llm.cpu import usable_cores

        opts = ort.SessionOptions()
        # ONNX Runtime's default is one thread per *physical* core: on a 2-vCPU machine that is
        # one thread, half the speed. Torch takes every usable core; so do we.
        opts.intra_op_num_threads = threads or usable_cores()
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(onnx_file), opts, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.session.get_inputs()]
        cfg = model_dir / "sentence_bert_config.json"
        self.max_seq_length = int(json.loads(cfg.read_text()).get("max_seq_length", 512)) if cfg.is_file() else 512
        self._tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tok.no_padding()
        self._tok.no_truncation()
        self.dim = int(self.session.get_outputs()[0].shape[-1])

    def get_embedding_dimension(self) -> int:
        return self.dim

    def tokenizer(self, texts: list[str], add_special_tokens: bool = True, truncation: bool = False) -> dict[str, list[list[int]]]:
        """Token ids per text, uncut (what `Embedder.fits` asks)."""
        return {"input_ids": [e.ids for e in self._tok.encode_batch(texts, add_special_tokens=add_special_tokens)]}

    def encode(self, texts: list[str], batch_size: int = 1, show_progress_bar: bool = False, **_) -> np.ndarray:
        """L2-normalised vectors, one text per call whatever ``batch_size``: int8's activation
        scale is computed per call, so in a batch a text's vector would depend on its
        neighbours (cosine 0.992 to itself alone) and an index grown file by file would differ
        from one built at once. Alone, no padding is computed either: 149 chunks/s against 72
        in batches of 64 (the sample, 2 threads)."""
        from tqdm import tqdm

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, enc in enumerate(tqdm(self._tok.encode_batch(texts), desc="embedding", unit="text", disable=not show_progress_bar)):
            ids = enc.ids
            if len(ids) > self.max_seq_length:  # truncated: keep the closing special token, as HF does
                ids = ids[: self.max_seq_length - 1] + ids[-1:]
            n = len(ids)
            feed = {"input_ids": np.asarray([ids], dtype=np.int64)}
            if "attention_mask" in self.inputs:
                feed["attention_mask"] = np.ones((1, n), dtype=np.int64)
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.asarray([enc.type_ids[:n]], dtype=np.int64)
            out[row] = self.session.run(None, feed)[0][0]
        return out
