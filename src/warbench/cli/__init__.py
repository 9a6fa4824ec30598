"""The ``warbench`` command line. Rules code never imports this package."""

from warbench.cli.app import app, main

__all__ = ["app", "main"]
