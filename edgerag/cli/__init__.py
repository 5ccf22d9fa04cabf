"""The ``edgerag`` command line.

main.py      `main` and the parser: every command's flags, errors turned into messages
commands.py  the commands (index, query, build, eval, doctor, tui …), one ``cmd_*`` each
options.py   the option groups that set `Settings` fields, with help read from settings.py
display.py   how contexts, answers and ledgers are printed (the TUI shows the same lines)
docs_gen.py  docs/settings.md, docs/methods.md and the README's method table, from the
             code (``python -m edgerag.cli.docs_gen [--check]``)
__main__.py  ``python -m edgerag.cli``, the same as ``edgerag``
"""
