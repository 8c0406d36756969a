"""Annotate text at scale with a trained pipeline: inputs -> shards -> formatted outputs.

`annotate(pipeline, inputs, output_dir, settings)` is what `python -m spacy_senna
annotate` runs: each input file (or each `shard_bytes` piece of a large one) is one
shard, written under a temporary name and renamed when complete, so a re-run skips the
finished shards. Backends: this machine (`n_process`, spaCy's multiprocessing) or Ray.
"""

from .results import RunSummary, ShardResult
from .run import annotate
from .settings import AnnotateSettings

__all__ = ["AnnotateSettings", "RunSummary", "ShardResult", "annotate"]
