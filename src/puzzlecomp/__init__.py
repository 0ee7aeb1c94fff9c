"""puzzlecomp: runs jigsaw puzzle championships end to end, under any federation's rules."""

__version__ = "0.1.0"
