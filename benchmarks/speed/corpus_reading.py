"""Same-run time of one pass over a corpus by spacy-senna.Corpus.v1, its docs decoded by
`docbin_decoding.get_docs` (decoders looked up once) against spaCy's `DocBin.get_docs`.

usage: python benchmarks/speed/corpus_reading.py DATA.spacy [--copy-attrs tag_] [--shuffle]
       [--rounds 3]

The reader reads DATA as the configs do (`gold_preproc`, the named attributes copied onto
the predicted docs; `--shuffle` as the training corpora); only the decoding differs. Rounds
alternate in one process. Prints each one's median seconds a pass and their ratio.
"""

import argparse
import statistics
import time
from unittest import mock

from spacy.lang.en import English
from spacy.tokens import DocBin

from spacy_senna.corpora.readers import create_corpus_with_inputs


def seconds(reader, nlp, spacys_decoding: bool) -> float:
    """Time of one pass over `reader`'s examples."""
    start = time.perf_counter()
    if spacys_decoding:
        with mock.patch("spacy_senna.corpora.readers.get_docs", DocBin.get_docs):
            for _ in reader(nlp):
                pass
    else:
        for _ in reader(nlp):
            pass
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("data")
    p.add_argument("--copy-attrs", nargs="*", default=["tag_"])
    p.add_argument("--shuffle", action="store_true")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    nlp = English()
    reader = create_corpus_with_inputs(
        args.data, copy_attrs=args.copy_attrs, gold_preproc=True, shuffle=args.shuffle
    )
    n = sum(1 for _ in reader(nlp))
    times_spacy, times_ours = [], []
    for _ in range(args.rounds):
        times_spacy.append(seconds(reader, nlp, spacys_decoding=True))
        times_ours.append(seconds(reader, nlp, spacys_decoding=False))
    spacy_s, ours_s = statistics.median(times_spacy), statistics.median(times_ours)
    print(f"{n} docs x {args.rounds} rounds")
    print(f"DocBin.get_docs: {spacy_s:.2f} s a pass")
    print(f"docbin_decoding.get_docs: {ours_s:.2f} s a pass")
    print(f"ratio (median of rounds): {spacy_s / ours_s:.1f}x")


if __name__ == "__main__":
    main()
