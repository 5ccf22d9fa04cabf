"""Do two CPUs give one text the same vector? (issue #40, "One index on every CPU")

    .venv/bin/python benchmarks/cross_cpu_vectors.py export                  # the ONNX files, once
    .venv/bin/python benchmarks/cross_cpu_vectors.py embed /tmp/host.npz     # on this CPU
    qemu-x86_64 -cpu max .venv/bin/python benchmarks/cross_cpu_vectors.py embed /tmp/avx2.npz
    .venv/bin/python benchmarks/cross_cpu_vectors.py compare /tmp/host.npz /tmp/avx2.npz

``embed`` runs each recipe's ONNX file through ONNX Runtime alone (no edgerag import, so it also
runs under an emulator: `qemu-x86_64 -cpu max` from Debian's qemu-user is an x86 CPU with AVX2
and without AVX-512 or VNNI, whose ONNX Runtime takes the AVX2 kernels) over the first
``--passages`` MuSiQue dev passages and ``--questions`` questions, one text per call as the
embedder runs them. ``compare`` prints the cosine between the two files' vectors per recipe
and writes benchmarks/results/cross_cpu_vectors.json. The recipes:

* ``fp32`` — the ``onnx`` backend;
* ``int8`` — the ``onnx-int8`` backend (s8 weights per channel, u8 activations per call);
* ``int8-reduce-range`` — the same with 7-bit weights, whose u8·s8 pair sums cannot saturate;
* ``u8-weights`` — u8 weights (ONNX Runtime's U8U8 path).

Emulated, the embedding is slow (about 2 minutes for the default 16 + 4 texts); the
cosines do not depend on speed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

WORK = Path(".edgerag/cross-cpu")


def _paths() -> dict[str, Path]:
    from edgerag.embed.embedder import Embedder
    from edgerag.embed.onnx import exported_path
    from edgerag.llm.models import cache_dir

    weights = Embedder(backend="onnx").weights_id
    return {
        "fp32": exported_path(cache_dir(), weights, "onnx"),
        "int8": exported_path(cache_dir(), weights, "onnx-int8"),
        "int8-reduce-range": WORK / "int8-reduce-range.onnx",
        "u8-weights": WORK / "u8-weights.onnx",
    }


def export() -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from edgerag.embed.embedder import Embedder, resolve_embedder_path

    for backend in ("onnx", "onnx-int8"):
        Embedder(backend=backend).encode(["export"])
    paths = _paths()
    WORK.mkdir(parents=True, exist_ok=True)
    common = {"op_types_to_quantize": ["MatMul"], "per_channel": True}
    quantize_dynamic(str(paths["fp32"]), str(paths["int8-reduce-range"]), weight_type=QuantType.QInt8, reduce_range=True, **common)
    quantize_dynamic(str(paths["fp32"]), str(paths["u8-weights"]), weight_type=QuantType.QUInt8, **common)
    manifest = {k: str(v) for k, v in paths.items()} | {"model": str(resolve_embedder_path())}
    (WORK / "files.json").write_text(json.dumps(manifest, indent=1))
    print(f"wrote {WORK / 'files.json'}")


def embed(out: str, data: str, passages: int, questions: int) -> None:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    files = json.loads((WORK / "files.json").read_text())
    texts = []
    with open(f"{data}/musique/dev/corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            texts.append(f"{r.get('title', '')}\n{r['text']}".strip())
            if len(texts) == passages:
                break
    with open(f"{data}/musique/dev/questions.jsonl", encoding="utf-8") as f:
        texts += [json.loads(line)["question"] for _, line in zip(range(questions), f)]
    tok = Tokenizer.from_file(f"{files['model']}/tokenizer.json")
    tok.no_padding()
    tok.no_truncation()
    vectors = {}
    for name in ("fp32", "int8", "int8-reduce-range", "u8-weights"):
        opts = ort.SessionOptions()
        opts.intra_op_num_threads, opts.inter_op_num_threads = 2, 1
        session = ort.InferenceSession(files[name], opts, providers=["CPUExecutionProvider"])
        inputs = [i.name for i in session.get_inputs()]
        rows = []
        for enc in tok.encode_batch(texts):
            ids = enc.ids if len(enc.ids) <= 256 else enc.ids[:255] + enc.ids[-1:]
            feed = {"input_ids": np.asarray([ids], dtype=np.int64)}
            if "attention_mask" in inputs:
                feed["attention_mask"] = np.ones((1, len(ids)), dtype=np.int64)
            if "token_type_ids" in inputs:
                feed["token_type_ids"] = np.zeros((1, len(ids)), dtype=np.int64)
            rows.append(session.run(None, feed)[0][0])
        vectors[name] = np.stack(rows)
        print(name, flush=True)
    np.savez(out, **vectors)


def compare(a: str, b: str, out: str) -> None:
    x, y = np.load(a), np.load(b)
    result = {"benchmark": "cross-cpu vectors", "a": a, "b": b, "recipes": {}}
    for name in x.files:
        if name not in y.files:
            continue
        n = min(len(x[name]), len(y[name]))
        cos = np.sum(x[name][:n] * y[name][:n], axis=1)
        row = {
            "texts": n,
            "cosine_mean": float(cos.mean()),
            "cosine_min": float(cos.min()),
            "max_abs_diff": float(np.abs(x[name][:n] - y[name][:n]).max()),
        }
        result["recipes"][name] = row
        print(
            f"  {name:<18} cosine mean {row['cosine_mean']:.6f}  min {row['cosine_min']:.6f}  largest coordinate difference {row['max_abs_diff']:.1e}"
        )
    Path(out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["export", "embed", "compare"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--passages", type=int, default=16)
    ap.add_argument("--questions", type=int, default=4)
    ap.add_argument("--out", default="benchmarks/results/cross_cpu_vectors.json")
    args = ap.parse_args()
    if args.step == "export":
        export()
    elif args.step == "embed":
        embed(args.files[0], args.data, args.passages, args.questions)
    else:
        compare(args.files[0], args.files[1], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
