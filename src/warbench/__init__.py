"""warbench: an open workbench for build-your-own-army tabletop wargames."""

__version__ = "0.1.0"
