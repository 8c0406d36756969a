"""Components that annotate a whole batch of docs at once (en_senna's sentencizer, attribute
ruler and lemmatizer): a doc is a batch of one, a stream is cut into batches, and an error
goes to the component's error handler as spaCy's own components hand it. A batch is
annotated holding the component's lock (its caches; see threads.py)."""

from typing import Callable, Iterable, Iterator, List

from spacy import util
from spacy.pipeline import Pipe
from spacy.tokens import Doc

from ..runtime.collector import collector_paused
from ..runtime.threads import inference_lock

Annotate = Callable[[List[Doc]], None]


def annotate_doc(component: Pipe, annotate: Annotate, doc: Doc) -> Doc:
    """`doc` annotated by `annotate` (as a batch of one)."""
    error_handler = component.get_error_handler()
    try:
        with inference_lock(component):
            annotate([doc])
        return doc
    except Exception as e:
        return error_handler(component.name, component, [doc], e)


def annotate_stream(
    component: Pipe, annotate: Annotate, stream: Iterable[Doc], batch_size: int
) -> Iterator[Doc]:
    """The docs of `stream`, annotated by `annotate` `batch_size` at a time."""
    error_handler = component.get_error_handler()
    for docs in util.minibatch(stream, size=batch_size):
        try:
            with inference_lock(component), collector_paused():
                annotate(docs)
            yield from docs
        except Exception as e:
            error_handler(component.name, component, docs, e)
