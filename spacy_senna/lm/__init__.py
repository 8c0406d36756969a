"""Language-model pretraining of the word embeddings (paper §4).

`pretrain` trains the window ranking LM on raw text and writes the embeddings as a
spaCy vectors pipeline (`[initialize] vectors = OUTPUT_DIR`); `import_text_vectors`
converts word2vec/GloVe text vectors to the same kind of directory, re-keyed by
`normalize_word`; `nearest_neighbours` is the Euclidean report of paper Table 7.
"""

from .neighbours import nearest_neighbours
from .pretrain import pretrain
from .ranking_model import RankingLM, ranking_loss
from .settings import PretrainConfig
from .text_vectors import import_text_vectors
from .vectors_pipeline import read_vectors, write_vectors

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
