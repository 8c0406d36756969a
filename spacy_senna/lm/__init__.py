"""Language-model pretraining of the word embeddings (paper §4).

`pretrain` trains the window ranking LM on raw text and writes the embeddings as a
spaCy vectors pipeline (`[initialize] vectors = OUTPUT_DIR`); `import_text_vectors`
converts word2vec/GloVe text vectors to the same kind of directory, re-keyed by
`normalize_word`; `nearest_neighbours` is the Euclidean report of paper Table 7.
"""

from .export import import_text_vectors, nearest_neighbours, read_vectors, write_vectors
from .pretrain import PretrainConfig, pretrain
from .ranking_model import RankingLM, ranking_loss

__all__ = [
    "PretrainConfig",
    "RankingLM",
    "import_text_vectors",
    "nearest_neighbours",
    "pretrain",
    "ranking_loss",
    "read_vectors",
    "write_vectors",
]
