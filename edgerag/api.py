"""`EdgeRAG`: the one object the CLI, the TUI and Python users drive.

rag = EdgeRAG("my-index")
report = rag.insert(["docs/"])        # readers → chunks → vectors → LMDB + hnswlib
rag.delete(["<doc id>"])              # every trace of a document (rag.documents() lists them)
ctx = rag.retrieve("Who …?")            # method: settings.method (bridge-ppr); budget: λ
answer = rag.answer("Who …?", ctx)      # or rag.query(...) for both; answer.citations
rag.stats()                           # counts, and the token ledger per stage and method
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import methods as registry
from . import offline  # noqa: F401
from .answer import Answer, ReadPlan, plan_answer
from .answer.budget import typical_answer_seconds
from .answer.evidence import evidence_units
from .answer.hops import resolve as resolve_hops
from .answer.in_code import decide_from_read, decide_in_code
from .answer.plan import whole_read_budget
from .answer.steps import next_bridge
from .answer.walk import Reader, answer_planned
from .embed.embedder import Embedder
from .indexing import insert_documents
from .ingest import iter_documents
from .llm.local import LocalLLM
from .llm.metered import MeteredLLM
from .llm.models import answer_model_choice, extract_model_choice, resolve_model
from .settings import STORED_FIELDS, Settings
from .store import Index, IndexUnusableError
from .store.index import embedder_mismatch, same_vectors
from .store.index_settings import adopt_manifest, from_environment
from .store.ledger import Ledger
from .text.tokens import get_tokenizer
from .types import Context, Document, InsertReport, Unit

if TYPE_CHECKING:
    from .deletion import DeleteReport

NAME_LOOKUP_BUDGET = 800
"""Tokens of dense retrieval for a name whose passage the context lacks (`EdgeRAG.passages_named`)."""


class EdgeRAG:
    """An index directory plus the models that read and write it (loaded on first use)."""

    def __init__(self, index_dir: str | os.PathLike, settings: Settings | None = None, **overrides: Any) -> None:
        """Open ``index_dir``, creating it on first insert.

        Settings that shape stored data (tokenizer, ℓ, overlap, τ) come from the index's
        manifest when the index exists; passing different ones is an error rather than a
        silently inconsistent index.
        """
        self.path = Path(index_dir)
        base = from_environment((settings or Settings()).replace(**overrides))
        self.settings = adopt_manifest(base, self.path / "manifest.json").validate()
        self._index: Index | None = None
        self._models: dict[Path, MeteredLLM] = {}
        """Models other than `llm` (another ``answer_model`` or ``extract_model``), by file."""

    def configure(self, **changes: Any) -> Settings:
        """Change settings on an open instance (the TUI's form): method parameters (β, κ, K,
        …) take effect on the next call; a new model or window unloads the loaded one. The
        settings that shape stored data (ℓ, overlap, τ, tokenizer, embedder) can change only
        before the index exists."""
        new = self.settings.replace(**changes).validate()
        exists = (self.path / "manifest.json").exists()
        fixed = [k for k in (*STORED_FIELDS, "embedder", "embed_backend") if getattr(new, k) != getattr(self.settings, k)]
        if fixed and exists:
            raise ValueError(
                f"{', '.join(fixed)} cannot change: {self.path} was built with "
                + ", ".join(f"{k}={getattr(self.settings, k)}" for k in fixed)
                + "; index into a new directory"
            )
        if {"embedder", "embed_backend"} & set(fixed) or new.device != self.settings.device:
            self.__dict__.pop("embedder", None)
        llm_fields = ("model", "n_ctx", "llm_threads", "n_gpu_layers", "llm_repack")
        if any(getattr(new, k) != getattr(self.settings, k) for k in llm_fields):
            self.__dict__.pop("llm", None)
            self._models.clear()
        if any(getattr(new, k) != getattr(self.settings, k) for k in (*llm_fields, "answer_model")):
            self.__dict__.pop("answer_llm", None)
            self.__dict__.pop("answer_choice", None)
        if new.tokenizer != self.settings.tokenizer:
            self.__dict__.pop("tokenizer", None)
        self.settings = new
        return new

    # ---- lazily loaded parts ---------------------------------------------------------------
    @cached_property
    def embedder(self) -> Embedder:
        s = self.settings
        return Embedder(s.embedder, device=s.device, batch_size=s.embed_batch_size, backend=s.embed_backend)

    @cached_property
    def llm(self) -> MeteredLLM:
        """The local model, metered into this index's ledger and cache (loaded on first use)."""
        s = self.settings
        local = LocalLLM(resolve_model(s.model), n_ctx=s.n_ctx, n_threads=s.llm_threads, n_gpu_layers=s.n_gpu_layers, repack=s.llm_repack)
        return MeteredLLM(local, self.index.tables)

    @cached_property
    def answer_choice(self):
        """Which model answers here, and why (models.answer_model_choice): by its measured speed."""
        s = self.settings
        return answer_model_choice(
            s.answer_model, s.model, gpu=bool(s.n_gpu_layers), seconds=s.answer_seconds, typical_seconds=partial(typical_answer_seconds, s)
        )

    @cached_property
    def answer_llm(self) -> MeteredLLM:
        """The model that answers (``answer_model``): the same `llm` unless another model is
        chosen, then that one, metered into the same ledger and cache."""
        return self.metered(self.answer_choice.spec)

    @property
    def extract_llm(self) -> MeteredLLM:
        """The model that builds the LLM-made graph stages and reads queries for them
        (``extract_model``): `llm` unless another model is chosen."""
        return self.metered(extract_model_choice(self.settings.extract_model, self.settings.model).spec)

    def metered(self, spec: str | None) -> MeteredLLM:
        """The model ``spec`` (a known name or GGUF path) metered into this index's ledger and
        cache: `llm` for None or the same file; any other file is loaded once per instance."""
        if spec is None:
            return self.llm
        path = resolve_model(spec)
        if path == resolve_model(self.settings.model):
            return self.llm
        if path not in self._models:
            s = self.settings
            local = LocalLLM(path, n_ctx=s.n_ctx, n_threads=s.llm_threads, n_gpu_layers=s.n_gpu_layers, repack=s.llm_repack)
            self._models[path] = MeteredLLM(local, self.index.tables)
        return self._models[path]

    @cached_property
    def tokenizer(self):
        return get_tokenizer(self.settings.tokenizer)

    def _open(self, create: bool) -> Index:
        if self._index is None:
            if create:
                self._index = Index.open(
                    self.path,
                    embedder_id=self.embedder.model_id,
                    dim=self.embedder.dim,
                    stored=self.settings.stored(),
                    map_size=self.settings.map_size,
                    embedder_spec=self.settings.embedder,
                )
            else:
                self._index = Index.open(self.path, create=False, stored=self.settings.stored(), map_size=self.settings.map_size)
        return self._index

    @property
    def index(self) -> Index:
        """The index, opened for reading (it must exist)."""
        return self._open(create=False)

    # ---- writing ---------------------------------------------------------------------------
    def insert(self, paths: Iterable[str | os.PathLike], *, ray=None) -> InsertReport:
        """Index files and folders (.txt, .md, corpus .jsonl, .pdf, .docx, .html, .epub); bad
        files are reported and skipped, unchanged ones not read again, edited ones replaced.
        ``ray`` (`distributed.RayOptions`, an address, or True for a local instance) embeds on
        Ray workers; this process still writes every batch."""
        known = lambda path: self._index.get("files", path) if self._index is not None else None  # noqa: E731
        return self.insert_documents(iter_documents(paths, max_bytes=self.settings.max_file_bytes, known=known), ray=ray)

    def insert_documents(self, docs: Iterable[Document], *, ray=None) -> InsertReport:
        # An existing index is locked before the embedder loads, so a second writer is told at once.
        index = self._open(create=not (self.path / "manifest.json").exists())
        index.lock()
        try:
            self.check_embedder()
            if not ray:
                return insert_documents(index, docs, self.embedder, self.tokenizer, self.settings)
            from .cluster.indexing import embed_pool
            from .cluster.ray_pool import RayOptions

            with embed_pool(self.embedder, RayOptions.of(ray)) as remote:
                return insert_documents(index, docs, remote, self.tokenizer, self.settings)
        finally:
            index.unlock()

    def delete(self, doc_ids: Iterable[str]) -> DeleteReport:
        """Remove documents and every trace of them: chunks, vectors, links, extractions,
        names, cached LLM calls; KG and TERAG stages are rebuilt over what remains
        (deletion.py). A file or folder path names the documents read from it. Unknown ids
        are listed in the report's ``missing``."""
        from .deletion import delete_documents

        index = self.index
        index.lock()
        try:
            self.check_embedder()
            return delete_documents(index, list(doc_ids), self.embedder)
        finally:
            index.unlock()

    def documents(self) -> list[dict[str, Any]]:
        """Every document: id, title, source, number of chunks."""
        from .deletion import document_rows

        return document_rows(self.index)

    # ---- reading ---------------------------------------------------------------------------
    def retrieve(self, query: str, method: str | None = None, budget: int | None = None) -> Context:
        """Rank context for ``query`` with ``method`` (default ``settings.method``), cut to
        ``budget`` tokens (default λ)."""
        method = method or self.settings.method
        if not query or not query.strip():
            raise ValueError("the query is empty")
        if len(query) > self.settings.max_query_chars:
            raise ValueError(
                f"the query is {len(query):,} characters; the limit is {self.settings.max_query_chars:,} "
                "(max_query_chars): ask a question, and index long text as a document instead"
            )
        m = registry.get(method)
        self.check_embedder()
        if budget is not None and budget < 1:
            raise ValueError(f"the budget must be a positive number of tokens, got {budget}")
        extra = {"llm": self.extract_llm} if m.query_llm else {}
        return m.retrieve(self.index, self.embedder, query, budget or self.settings.budget, self.settings, **extra)

    def check_embedder(self) -> None:
        """Refuse an embedder other than the one the index was built with (its vectors would
        live in another space)."""
        built = self.index.manifest["embedder"]
        if not same_vectors(built["id"], self.embedder.model_id):
            raise IndexUnusableError(embedder_mismatch(self.path, built, self.embedder.model_id, self.embedder.dim))

    def plan_answer(
        self, question: str, context: Context, *, mode: str | None = None, steps: bool = True, seconds: float | None = None
    ) -> ReadPlan:
        """What `answer` will have the model read: units kept and left out (answer budget,
        window, time budget), prompt tokens, the expected seconds, and whether a chain
        question is answered hop by hop (its first step). No model call. ``steps=False`` reads
        the question whole (each step of a chain is read so), a table's row or a listed number
        still decided in code (in_code.py `decide_from_read`); ``seconds`` replaces the time
        budget ``settings.answer_seconds`` (a chain step's share of it). A question read whole
        in one read may take `whole_budget` tokens, time permitting."""
        s = self.settings
        evidence = None
        section = None
        if s.answer_reader == "evidence":
            evidence = partial(evidence_units, self.index, self.embedder)
            if s.answer_section:  # a rule's question reads the rule's section whole (issue #62)
                section = partial(evidence_units, self.index, self.embedder, whole=True)
        compare = partial(decide_from_read, question) if s.answer_hops else None  # a step: what its passages decide
        hops = chain = None
        if s.answer_hops and steps:
            compare = partial(decide_in_code, question, lookup=self.passages_named)
            hops = partial(resolve_hops, question, lookup=self.passages_named)
        if s.answer_chain and steps:
            chain = partial(next_bridge, lookup=self.passages_named)
        return plan_answer(
            self.answer_llm,
            question,
            context,
            mode=mode or s.answer_mode,
            budget=s.answer_budget,
            max_tokens=s.answer_max_tokens,
            evidence=evidence,
            section=section,
            compare=compare,
            hops=hops,
            chain=chain,
            seconds=seconds if seconds is not None else s.answer_seconds,
            whole_budget=(lambda: self.whole_budget) if steps else None,
        )

    @property
    def whole_budget(self) -> int:
        """Tokens a question read whole in one read may read: ``settings.answer_whole_budget``,
        else by the answering model's size (answer/plan.py `whole_read_budget`)."""
        s = self.settings
        if s.answer_whole_budget is not None:
            return s.answer_whole_budget
        return whole_read_budget(s.answer_budget, getattr(self.answer_llm.llm, "n_params", None))

    def passages_named(self, name: str, budget: int = NAME_LOOKUP_BUDGET) -> list[Unit]:
        """The passages dense retrieval finds for ``name`` alone (a comparison's option or
        person whose passage the retrieved context lacks; answer/compare.py keeps one titled so)."""
        return self.retrieve(name, method="text", budget=budget).units

    def answer(
        self,
        question: str,
        context: Context,
        *,
        mode: str | None = None,
        short: bool = False,
        on_text: Callable[[str], None] | None = None,
        plan: ReadPlan | None = None,
    ) -> Answer:
        """Answer from a retrieved context, with citations; ``on_text`` streams the tokens.
        ``mode`` (default ``settings.answer_mode``): auto, choose, short or long (answer/plan.py);
        ``short=True`` is ``mode="short"``. The model reads the context's evidence sentences
        (``settings.answer_reader``) or best units up to ``settings.answer_budget`` tokens
        (`plan_answer` says which, before the call). The plan is walked top to bottom by
        answer/walk.py: its chain, else its comparison's missing sides, else the question whole."""
        mode = "short" if short else mode
        plan = plan or self.plan_answer(question, context, mode=mode)
        s = self.settings
        reader = Reader(
            llm=self.answer_llm,
            retrieve=self.retrieve,
            plan=partial(self.plan_answer, steps=False),  # a step is read whole
            lookup=self.passages_named,
            answer_budget=s.answer_budget,
            max_tokens=s.answer_max_tokens,
            relations=s.answer_hops,
            check=s.answer_check,
            rule_check=s.answer_rule_check,
            rule_items=s.answer_rule_items,
            model_check=s.answer_model_check,
        )
        return answer_planned(reader, question, context, plan, on_text=on_text)

    def query(
        self,
        question: str,
        method: str | None = None,
        budget: int | None = None,
        *,
        mode: str | None = None,
        short: bool = False,
        on_text: Callable[[str], None] | None = None,
    ) -> Answer:
        """Retrieve, then answer: the whole RAG round trip."""
        return self.answer(question, self.retrieve(question, method=method, budget=budget), mode=mode, short=short, on_text=on_text)

    def build(self, method: str, *, limit: int | None = None, ray=None) -> dict[str, Any]:
        """Build the stages ``method`` reads (LLM extraction included: see `plan` first).
        ``ray`` runs the KG extraction calls on Ray workers (cluster/indexing.py)."""
        from .build import build

        self.check_embedder()
        return build(self, method, limit=limit, ray=ray)

    def plan(self, method: str):
        """What building ``method`` with the ``extract_model`` will cost: chunks to extract,
        tokens, time."""
        from .build import plan

        return plan(self, method)

    def plans(self, method: str):
        """`plan` for the ``extract_model`` and for every other installed model."""
        from .build import plans

        return plans(self, method)

    def export_graph(self, graph: str, path: str | os.PathLike, format: str | None = None):
        """Write a built graph (``kg``, ``links``, ``concepts``, ``terag`` or ``knn``) as GraphML
        or node-link JSON (by ``format``, or the file's suffix) for Gephi, Cytoscape or networkx;
        returns an `export.Exported` (nodes, edges, the stage it came from)."""
        from .export import export_graph

        return export_graph(self.index, self.settings, graph, path, format)

    def ledger_rows(self):
        return Ledger(self.index.tables).rows()

    def ledger(self, since: float | None = None) -> dict[str, Any]:
        """Token totals (fresh and cached) overall, per stage and per method."""
        return Ledger(self.index.tables).totals(since=since)

    def stats(self) -> dict[str, Any]:
        index = self.index
        return {
            "index": str(self.path),
            "format": index.manifest["format"],
            "embedder": index.manifest["embedder"],
            "settings": index.manifest["settings"],
            "counts": index.counts(),
            "vectors": {name: len(vs) for name, vs in index.vectors.items()},
            "stages": self.stages(),
            "tokens": self.ledger(),
        }

    def stages(self) -> dict[str, dict[str, Any]]:
        """Built stages (graphs, KGs) by name, each with what it was built from and its counts."""
        with self.index.tables.read() as txn:
            return {name: {k: v for k, v in rec.items() if k != "arrays"} for name, rec in self.index.tables.items(txn, "stages")}

    @staticmethod
    def methods() -> list[str]:
        return registry.names()

    # ---- lifetime --------------------------------------------------------------------------
    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

    def __enter__(self) -> EdgeRAG:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
