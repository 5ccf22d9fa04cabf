"""The ``edgerag`` command line.

main.py      the commands (index, query, build, eval, doctor, tui …) and `main`
options.py   the option groups that set `Settings` fields, with help read from settings.py
display.py   how contexts, answers and ledgers are printed (the TUI shows the same lines)
docs_gen.py  docs/settings.md, docs/methods.md and the README's method table, from the
             code (``python -m edgerag.cli.docs_gen [--check]``)
__main__.py  ``python -m edgerag.cli``, the same as ``edgerag``
"""
