"""Colours for charts: the Okabe-Ito palette (told apart with colour blindness too)."""

COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#6b4c9a", "#8a6d00"]
