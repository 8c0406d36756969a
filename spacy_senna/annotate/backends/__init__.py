"""Ways to run the shards: in this process (with spaCy's multiprocessing) or on Ray."""
