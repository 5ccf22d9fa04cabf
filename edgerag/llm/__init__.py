"""The local model: a GGUF run by llama.cpp, metered, proven on this machine, and timed.

    models.py    the known models (pip-shipped parts, sha256-verified), a user's GGUF by path,
                 `cache_dir`, and which model answers (`answer_model_choice`)
    cpu.py       what this CPU offers llama.cpp (flags, its class), and the repack decision
    probe.py     one generation in a child process before a process trusts a model: a crash
                 in llama.cpp becomes a message (``python -m edgerag.llm.probe``)
    local.py     `LocalLLM`: prompts, tokens, greedy completion, `ChoiceTrie`
    metered.py   `MeteredLLM`: every call through the index's cache and ledger
    sharing.py   whether a call had the cores to itself (``/proc/stat`` against this process's CPU time)
    speeds.py    this machine's prompt and generation speeds at rest per model, which a call
                 that shared the cores never lowers (issues #41, #57)

Imports point down this list's dependencies: models, cpu and sharing know nothing of llama.cpp's
Python binding; probe loads it in a child; local uses probe; metered wraps local; speeds reads
sharing's verdicts.
"""
