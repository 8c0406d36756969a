"""Corpora: converters from corpus formats to Docs, and the corpus reader that training uses."""
