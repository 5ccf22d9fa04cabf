"""Entity bridges (#7): link keys, the link graph, and `bridge` / `bridge-ppr` retrieval on a
corpus where the answer passage shares nothing with the question but a name."""

from __future__ import annotations

import numpy as np
import pytest

from edgerag import EdgeRAG
from edgerag.graph import links
from edgerag.graph.links import caps, load_links
from edgerag.retrieve.bridge import bm25_scores, drop_near_duplicates, rrf, top_rows
from edgerag.text.linkkeys import link_keys, spans
from edgerag.types import Document

QUESTION = "Where was the astronomer who sealed the Zorblax vault born?"
ANSWER = "Quillon Bay"
DOCS = [
    Document("seal", "The Zorblax vault was sealed in 1931 by the astronomer Edith Varga after the comet survey."),
    Document("born", "Edith Varga was born in Quillon Bay, a fishing town, and learned to sail there."),
    Document("d1", "The astronomer Tomas Reyl was born in Lisbon and studied comets at the observatory."),
    Document("d2", "Many astronomers were born in port cities; the observatory archive lists their birthplaces."),
    Document("d3", "A vault under the observatory was sealed after the survey; astronomers kept the key."),
    Document("d4", "The astronomer Ines Morrow was born in Porto and sealed her notebooks in a vault."),
] + [Document(f"film{i}", f"Harbor Lights is a film shown in town number {i} with a long intermission.") for i in range(12)]


@pytest.fixture(scope="module")
def bridge_rag(tmp_path_factory):
    rag = EdgeRAG(tmp_path_factory.mktemp("bridge") / "ix", progress=False)
    rag.insert_documents(DOCS)
    return rag


def test_spans_drop_grammatical_capitals_and_keep_names():
    text = "The Zorblax vault lies under Kettering Hill. It was sealed by Edith Varga, who joined the Bank of America in 1931."
    assert spans(text) == ["zorblax", "kettering hill", "edith varga", "bank of america"]
    keys = link_keys(text)
    assert ("num", "1931") in keys and ("word", "vault") in keys and ("span", "kettering hill") in keys
    assert ("span", "it") not in keys and ("span", "the zorblax") not in keys


def test_link_graph_keeps_only_informative_keys(bridge_rag):
    g = load_links(bridge_rag.index, bridge_rag.settings)
    labels = {(str(k), str(lab)) for k, lab in zip(g.kinds, g.labels)}
    assert ("span", "edith varga") in labels  # in two passages: a bridge
    assert ("span", "quillon bay") not in labels  # in one passage: links nothing
    cap, _ = caps(len(g.ids), bridge_rag.settings)
    assert cap == 10 and ("span", "harbor lights") not in labels  # in 12 passages: above the cap
    assert np.all((g.df >= 2) & (g.df <= cap))
    j = [str(x) for x in g.labels].index("edith varga")
    col = g.K[:, j].toarray().ravel()
    assert np.isclose(col.max(), np.log(len(g.ids) / 2)) and (col > 0).sum() == 2  # IDF weight, two passages


def test_link_graph_built_in_slices_equals_one_built_at_once(tmp_path, monkeypatch):
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert_documents(DOCS)
    whole = load_links(rag.index, rag.settings)
    with rag.index.tables.write() as txn:  # forget the stage, then build it 2 chunks at a time
        txn.delete(links.STAGE.encode(), db=rag.index.tables.db["stages"])
    monkeypatch.setattr(links, "BUILD_SLICE", 2)
    sliced = load_links(rag.index, rag.settings)
    assert len(sliced.ids) == len(DOCS) > 2
    for name in ("ids", "labels", "kinds", "df", "tokens", "vectors", "tf_terms"):
        assert np.array_equal(np.asarray(getattr(whole, name)), np.asarray(getattr(sliced, name))), name
    assert (whole.K != sliced.K).nnz == 0 and (whole.TF != sliced.TF).nnz == 0 and whole.K.nnz > 0
    rag.close()


def test_bridge_reaches_the_answer_passage_and_says_why(bridge_rag):
    rag = bridge_rag
    # the bridge ranking itself, unfused (fusion is test_fusions_and_bm25's)
    rag.settings = rag.settings.replace(bridge_seeds=1, bridge_lambda=0.5, link_kinds="span,num", bridge_fusion="none")
    budget = 2 * max(u.tokens for u in rag.retrieve(QUESTION, method="text", budget=4000).units)
    dense = rag.retrieve(QUESTION, method="text", budget=budget)
    assert not any(ANSWER in u.text for u in dense.units)  # dense alone misses the second hop
    ctx = rag.retrieve(QUESTION, method="bridge", budget=budget)
    top = {u.doc_id: u for u in ctx.units[:2]}
    assert set(top) == {"seal", "born"}  # the question's passage and, through the bridge, the answer's
    why = top["born"].meta["bridge"]
    assert why["seed"] == top["seal"].id and "edith varga" in why["keys"] and why["bonus"] > 0
    assert "bridge" not in top["seal"].meta  # a seed is there on its own merit

    def rank_of_answer(method):
        units = rag.retrieve(QUESTION, method=method, budget=10_000).units
        return [u.doc_id for u in units].index("born")

    rag.settings = rag.settings.replace(bridge_ppr_damping=0.7)
    assert rank_of_answer("bridge-ppr") < rank_of_answer("text")  # the walk crosses the bridge too


def test_fusions_and_bm25(bridge_rag):
    rag = bridge_rag
    g = load_links(rag.index, rag.settings)
    scores = bm25_scores(g, "Quillon Bay fishing")
    assert str(g.ids[int(np.argmax(scores))]).startswith("born")
    # each list's shared last rank (len + 1) is left out of every row: it orders nothing
    fused = rrf(np.array([3.0, 2.0, 1.0]), np.array([1.0, 2.0, 3.0]), np.array([3.0, 1.0, 2.0]))
    assert np.argmax(fused) == 0 and np.isclose(fused[0], 2 / 61 + 1 / 63 - 3 / 64)
    # weights and k: a heavy second list overturns the first; k sets how steep ranks fall
    weighted = rrf(np.array([3.0, 2.0, 1.0]), np.array([1.0, 2.0, 3.0]), weights=(1.0, 3.0), k=0)
    assert np.argmax(weighted) == 2 and np.isclose(weighted[2], 1 / 3 + 3 / 1 - 1 / 4 - 3 / 4)
    with pytest.raises(ValueError):  # one weight per list
        rrf(np.array([1.0]), np.array([1.0]), weights=(1.0,))
    # a list ranks only the rows it scores above 0, and only to its depth; the rows it left
    # out share the rank after its last (3rd here), the same for each of them
    unfound = rrf(np.array([0.0, 2.0, 0.0, 1.0]), np.array([1.0, 1.0, 1.0, 1.0]), k=0)
    assert np.allclose(unfound, [1 / 1 - 1 / 5, (1 / 1 - 1 / 3) + (1 / 2 - 1 / 5), 1 / 3 - 1 / 5, (1 / 2 - 1 / 3) + (1 / 4 - 1 / 5)])
    assert np.allclose(rrf(np.array([3.0, 2.0, 1.0]), depth=2), [1 / 61 - 1 / 63, 1 / 62 - 1 / 63, 0.0])
    for fusion in ("dense", "dense+bm25"):
        rag.settings = rag.settings.replace(bridge_fusion=fusion)
        ctx = rag.retrieve(QUESTION, method="bridge", budget=300)
        assert ctx.units and ctx.tokens <= 300
    with pytest.raises(ValueError, match="bridge_fusion"):
        rag.settings.replace(bridge_fusion="max").validate()
    with pytest.raises(ValueError, match="bridge_bm25_weight"):
        rag.settings.replace(bridge_bm25_weight=-1.0).validate()


def test_top_rows_is_a_stable_argsort_head():
    rng = np.random.default_rng(5)
    score = rng.integers(0, 6, 500).astype(float)  # many ties, at every boundary
    full = np.argsort(-score, kind="stable")
    for k in (0, 1, 7, 100, 499, 500, 900):
        assert top_rows(score, k).tolist() == full[:k].tolist()
        positive = full[score[full] > 0]
        assert top_rows(score, k, above=0.0).tolist() == positive[:k].tolist()


def test_pushed_walk_retrieves_what_the_whole_walk_does(bridge_rag):
    rag = bridge_rag
    base = rag.settings
    got = {}
    for eps in (0.0, base.bridge_ppr_eps):
        rag.settings = base.replace(bridge_ppr_eps=eps)
        got[eps] = [u.id for u in rag.retrieve(QUESTION, method="bridge-ppr", budget=300).units]
    rag.settings = base
    assert base.bridge_ppr_eps > 0 and got[0.0] and got[0.0] == got[base.bridge_ppr_eps]
    with pytest.raises(ValueError, match="bridge_ppr_eps"):
        base.replace(bridge_ppr_eps=-1.0).validate()
    with pytest.raises(ValueError, match="bridge_ppr_damping"):  # at 1 the residual never shrinks
        base.replace(bridge_ppr_damping=1.0).validate()


def test_near_duplicates_leave_the_ranking_before_the_budget_fills(tmp_path):
    # synthetic: rows 0 and 2 are the same direction, row 3 is near row 1
    v = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0.99, 0.14], [0, 0, 1]], dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    tokens = np.array([10, 10, 10, 10, 10])
    order = np.arange(5)
    assert drop_near_duplicates(order, v, tokens, 0.9, 100).tolist() == [0, 1, 4]
    assert drop_near_duplicates(order, v, tokens, 0.999, 100).tolist() == [0, 1, 3, 4]  # 3 is only near 1
    assert drop_near_duplicates(order, v, tokens, 0.9, 20).tolist() == [0, 1, 2, 3, 4]  # checked until 20 tokens kept
    tables = np.array(["a", "", "a", "", ""], dtype=object)  # rows 0 and 2: chunks of one document's table, no copies
    assert drop_near_duplicates(order, v, tokens, 0.9, 100, tables_of=lambda rows: tables[rows]).tolist() == [0, 1, 2, 4]
    prose = np.array(["", "", "", "", ""], dtype=object)  # look-alike prose of one page: still left out
    assert drop_near_duplicates(order, v, tokens, 0.9, 100, tables_of=lambda rows: prose[rows]).tolist() == [0, 1, 4]
    # through the API: a reworded copy of the answer passage, and twelve near-identical film notices
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert_documents(
        DOCS + [Document("born-copy", "Edith Varga was born in Quillon Bay, a small fishing town, and she learned to sail there.")]
    )
    got = {}
    for tau in (1.0, 0.9):
        rag.settings = rag.settings.replace(bridge_dedup=tau)
        got[tau] = [u.doc_id for u in rag.retrieve(QUESTION, method="bridge-ppr", budget=10_000).units]
    assert {"born", "born-copy"} <= set(got[1.0]) and sum(d.startswith("film") for d in got[1.0]) == 12
    assert len({"born", "born-copy"} & set(got[0.9])) == 1 and sum(d.startswith("film") for d in got[0.9]) < 12
    assert set(got[1.0]) - set(got[0.9]) <= {"born", "born-copy"} | {f"film{i}" for i in range(12)}  # nothing else lost
    with pytest.raises(ValueError, match="bridge_dedup"):
        rag.settings.replace(bridge_dedup=0.0).validate()


def test_the_cli_explains_a_bridge(bridge_rag, capsys):
    from edgerag.cli.main import main

    args = [
        "query",
        QUESTION,
        "--method",
        "bridge",
        "--index",
        str(bridge_rag.path),
        "--bridge-seeds",
        "1",
        "--bridge-lambda",
        "0.5",
        "--links",
        "span,num",
        "--fusion",
        "none",
        "--budget",
        "120",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "bridged from seal:0 through 'edith varga'" in out and ANSWER in out


def test_llm_names_join_the_link_keys(tmp_path):
    """Names an LLM extraction wrote become link keys (kinds ``terag`` and ``kg``) for the
    chunks it covered, and the link graph is rebuilt when more names exist."""
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert_documents(DOCS[:4])
    before = load_links(rag.index, rag.settings)
    assert "terag" not in set(map(str, before.kinds))
    chunk = {i.split(":")[0]: i for i in rag.index.ids("chunks")}
    with rag.index.tables.write() as txn:
        for doc in ("seal", "born"):  # a name no capitalised span yields
            rag.index.tables.put(txn, "names", chunk[doc], {"entities": ["the comet astronomer", "1931"], "concepts": []})
        rag.index.tables.put(txn, "extractions", chunk["seal"], {"entities": [{"name": "Edith Varga's vault"}], "relations": []})
        rag.index.tables.put(txn, "extractions", chunk["d1"], {"entities": [{"name": "Edith Varga's vault"}], "relations": []})
    g = load_links(rag.index, rag.settings)
    keys = {(str(k), str(lab)): j for j, (k, lab) in enumerate(zip(g.kinds, g.labels))}
    assert ("terag", "the comet astronomer") in keys and ("kg", "edith varga's vault") in keys
    rows = {str(i).split(":")[0]: r for r, i in enumerate(g.ids)}
    col = g.K[:, keys[("terag", "the comet astronomer")]].toarray().ravel()
    assert col[rows["seal"]] > 0 and col[rows["born"]] > 0 and col[rows["d1"]] == 0  # only where extracted
    rag.settings.replace(link_kinds="span,terag,kg").validate()
    ctx = rag.retrieve(QUESTION, method="bridge-ppr", budget=200)
    assert ctx.units
    rag.close()


def test_the_chunks_of_one_long_table_are_no_copies_of_each_other(tmp_path):
    """A cash-flow statement long enough to be split into chunks: each chunk's rows carry the
    table's caption, so the chunks look alike to the embedder (cosine ≥ τ_dup), and the chunk with
    the operating rows was dropped as a copy of the investing one. Chunks of one document are
    never copies: all of them are read."""
    rows = "".join(
        f"<tr><td>{section} line {i}</td><td>{1000 + 37 * i:,}</td><td>{900 + 29 * i:,}</td></tr>"
        for section in ("Operating", "Investing", "Financing")
        for i in range(45)
    )
    page = tmp_path / "cashflow.html"
    page.write_text(
        "<html><body><h2>Consolidated statement of cash flows for the year ended 31 March 2021</h2>"
        f"<table><tr><th></th><th>2021</th><th>2020</th></tr>{rows}</table></body></html>"
    )
    rag = EdgeRAG(tmp_path / "ix", progress=False)
    rag.insert([page])
    chunks = {u.chunk_id for u in rag.retrieve("statement of cash flows", method="text", budget=50_000).units}
    assert len(chunks) >= 3  # the table is split
    got = {u.chunk_id for u in rag.retrieve("What was operating line 3 in 2021?", method="bridge-ppr", budget=50_000).units}
    assert got == chunks
    rag.close()
