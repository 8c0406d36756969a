"""word2vec or fastText (gensim) on exactly the text `pretrain-lm` trained on, for the
pretraining comparison: same tokens, same 100,000-word dictionary, vectors keyed alike.

usage: python benchmarks/lm/pretrain_compare.py CORPUS_DIR VECTORS.txt
       --method word2vec|fasttext [--width 50] [--window 5] [--negatives 5]
       [--epochs 5] [--workers 1] [--json FILE]

CORPUS_DIR is the encoded corpus `pretrain-lm` keeps beside its checkpoints
(`vectors/lm-wiki.checkpoints/corpus`): the spaCy-tokenized, normalised (lowercase,
digits -> 0) training stream of the LM, its lines, and its dictionary; words outside the
dictionary are read as one unknown word, as the LM saw them. word2vec is skip-gram with
negative sampling; fastText the same with character n-grams (3-6). Writes word2vec text
vectors of the dictionary's words (import them with `python -m spacy_senna import-vectors
VECTORS.txt DIR`) and prints and records the training seconds and words/s. Needs gensim
(`pip install gensim`; not a dependency of spacy-senna).
"""

import argparse
import json
import time
from pathlib import Path
from typing import Iterator, List

import numpy

from spacy_senna.layers.lexicon import PADDING, SPECIALS
from spacy_senna.lm.corpus import EncodedCorpus

UNKNOWN_WORD = "<unk>"
PADDING_WORD = "<pad>"


class Lines:
    """The LM's training stream as lists of words, one per line (re-iterable for gensim)."""

    def __init__(self, corpus: EncodedCorpus):
        self.corpus = corpus
        specials = [PADDING_WORD, UNKNOWN_WORD]
        assert len(specials) == len(SPECIALS)
        self.words = numpy.array(specials + corpus.vocab, dtype=object)

    def __iter__(self) -> Iterator[List[str]]:
        """Lines split at the PADDING rows, a few million tokens at a time (vectorised)."""
        rows = self.corpus.type2row
        stream = self.corpus.words
        step = 1 << 22
        carry: List[str] = []
        for start in range(0, len(stream), step):
            chunk = rows[numpy.asarray(stream[start : start + step])]
            breaks = numpy.flatnonzero(chunk == PADDING)
            pieces = numpy.split(self.words[chunk], breaks)
            # every piece after the first starts with the PADDING that ended the line before
            first, rest = pieces[0].tolist(), [p[1:].tolist() for p in pieces[1:]]
            lines = [carry + first] + rest
            carry = lines.pop()
            yield from (line for line in lines if line)
        if carry:
            yield carry


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("corpus_dir", type=Path)
    p.add_argument("output", type=Path)
    p.add_argument("--method", choices=["word2vec", "fasttext"], required=True)
    p.add_argument("--width", type=int, default=50)
    p.add_argument("--window", type=int, default=5)
    p.add_argument("--negatives", type=int, default=5)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", type=Path)
    args = p.parse_args()
    from gensim.models import FastText, Word2Vec

    corpus = EncodedCorpus(args.corpus_dir)
    lines = Lines(corpus)
    common = dict(
        vector_size=args.width,
        window=args.window,
        negative=args.negatives,
        sg=1,
        min_count=1,
        workers=args.workers,
        seed=args.seed,
    )
    start = time.perf_counter()
    if args.method == "word2vec":
        model = Word2Vec(**common)
    else:
        model = FastText(min_n=3, max_n=6, **common)
    model.build_vocab(lines)
    built = time.perf_counter()
    model.train(lines, total_examples=model.corpus_count, epochs=args.epochs)
    seconds = time.perf_counter() - start
    train_seconds = time.perf_counter() - built
    words = [w for w in corpus.vocab if w in model.wv.key_to_index]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf8") as out:
        out.write(f"{len(words)} {args.width}\n")
        for word in words:
            values = " ".join(f"{v:.6f}" for v in model.wv[word])
            out.write(f"{word} {values}\n")
    result = {
        "method": args.method,
        "epochs": args.epochs,
        "workers": args.workers,
        "tokens_per_epoch": int(corpus.n_train_tokens),
        "seconds": round(seconds, 1),
        "train_seconds": round(train_seconds, 1),
        "words_per_second": round(args.epochs * corpus.n_train_tokens / train_seconds),
        "vectors": len(words),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf8")


if __name__ == "__main__":
    main()
