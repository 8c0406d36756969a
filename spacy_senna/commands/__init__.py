"""Subcommands of `python -m spacy_senna`: one module each, exposing `add_parser`."""
