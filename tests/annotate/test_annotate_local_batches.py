"""The local backend gives the components the batches a per-shard run gives them."""

import io

from spacy.lang.en import English
from spacy.language import Language
from spacy.util import minibatch

from spacy_senna.annotate import AnnotateSettings
from spacy_senna.annotate.backends.local import run_local
from spacy_senna.annotate.progress import Progress
from spacy_senna.annotate.shards import list_inputs, plan_shards

BATCHES = []


class BatchRecorder:
    def __call__(self, doc):
        return doc

    def pipe(self, docs, batch_size=128):
        for batch in minibatch(docs, size=batch_size):
            BATCHES.append([doc.text for doc in batch])
            yield from batch


@Language.factory("annotate_test_batch_recorder")
def make_recorder(nlp, name):
    return BatchRecorder()


def test_every_batch_holds_docs_of_one_shard(write, tmp_path):
    files = [write("a.txt", "a1\na2\na3\n"), write("b.txt", "b1\nb2\nb3\nb4\nb5\n")]
    shards = plan_shards(list_inputs([str(f) for f in files]), 1024).shards
    nlp = English()
    nlp.add_pipe("annotate_test_batch_recorder")
    BATCHES.clear()
    settings = AnnotateSettings(format="jsonl", batch_size=2)
    run = run_local(nlp, shards, tmp_path / "out", settings, Progress(2, False, io.StringIO()))
    assert [r.docs for r in run.results] == [3, 5]
    assert BATCHES == [["a1", "a2"], ["a3", ""], ["b1", "b2"], ["b3", "b4"], ["b5", ""]]
    assert (tmp_path / "out" / "b.txt.00000.jsonl").read_text().count("\n") == 5
