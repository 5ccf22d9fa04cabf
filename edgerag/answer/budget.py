"""How long answers take by a given model on this machine (issue #41): a typical answer, which
``answer_model auto`` compares with the time budget (llm/models.py, `answer_model_choice`) and
`edgerag doctor` prints for each model; and a read already made (`read_cost`), which a chain
counts against the time budget. The speeds are this machine's (llm/speeds.py); a model never
run here is probed first.
"""

from __future__ import annotations

from collections.abc import Callable

from ..llm.local import LocalLLM
from ..llm.models import resolve_model
from ..settings import Settings
from .plan import CHAIN_READS, READ_OVERHEAD_S, SHORT_OUTPUT, TYPICAL_PROMPT_EXTRA
from .read import Answer


def model_speeds(settings: Settings, spec: str | None):
    """`speeds.Speeds` of the model ``spec`` on this machine with ``settings``' threads and GPU
    layers; a model never run here is probed first (a child process loads it and writes a few
    tokens, once per machine: probe.py)."""
    from ..llm.probe import proven_repack

    s = settings
    local = LocalLLM(resolve_model(spec), n_ctx=s.n_ctx, n_threads=s.llm_threads, n_gpu_layers=s.n_gpu_layers, repack=s.llm_repack)
    if local.speeds() is None:
        proven_repack(local.path, s.llm_repack, local.n_gpu_layers, local.n_threads)
    return local.speeds()


LEAST_SHARE = 0.5
"""The share of the answer budget a model must still read in each of a chain's reads, within the
time budget, to be chosen to answer (`typical_answer_seconds`): the time budget shrinks a slow
model's evidence, and a larger model that reads a few sentences is not worth its seconds."""


def typical_answer_seconds(settings: Settings, spec: str | None) -> float | None:
    """A typical answer's seconds by the model ``spec`` here, at the least it should read: the two
    reads of a chain question (`CHAIN_READS`), each `LEAST_SHARE` of the answer budget of evidence
    plus the prompt's own `TYPICAL_PROMPT_EXTRA` tokens, a short answer's output and the read's
    overhead. Within ``answer_seconds``, the model reads at least that; where the machine is
    faster, the time budget gives it more, up to the whole answer budget."""
    speeds = model_speeds(settings, spec)
    if speeds is None:
        return None
    evidence = int(LEAST_SHARE * settings.answer_budget)
    return CHAIN_READS * (speeds.seconds(evidence + TYPICAL_PROMPT_EXTRA, SHORT_OUTPUT) + READ_OVERHEAD_S)


def read_cost(speeds) -> Callable[[Answer], float]:
    """A read's expected seconds from its tokens at ``speeds`` (`speeds.Speeds`), as if the LLM
    cache had not served it, with the read's overhead (answer/chain.py `answer_chain`'s ``cost``)."""

    def cost(a: Answer) -> float:
        t = a.tokens
        evaluated, output = t.get("input", 0) + t.get("cached_input", 0), t.get("output", 0) + t.get("cached_output", 0)
        return speeds.seconds(evaluated, output) + READ_OVERHEAD_S

    return cost
