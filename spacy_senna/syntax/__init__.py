"""Constituency trees: brackets, SENNA's parse levels, constituents and noun chunks on a Doc."""
