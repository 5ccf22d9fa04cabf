"""The Textual terminal UI for edgerag (``edgerag tui``)."""
