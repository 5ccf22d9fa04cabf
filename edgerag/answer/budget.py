"""How long a typical answer takes by a given model on this machine (issue #41): what
``answer_model auto`` compares with the time budget (llm/models.py, `answer_model_choice`), and
what `edgerag doctor` prints for each model. The speeds are this machine's (llm/speeds.py); a
model never run here is probed first.
"""

from __future__ import annotations

from ..llm.local import LocalLLM
from ..llm.models import resolve_model
from ..settings import Settings
from .plan import CHAIN_READS, READ_OVERHEAD_S, SHORT_OUTPUT, TYPICAL_PROMPT_EXTRA


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
