"""``python -m edgerag.cli``: the ``edgerag`` command."""

import sys

from .main import main

sys.exit(main())
