"""Beyond one `spacy train`: training cycles, resuming a run, averaging weights."""
