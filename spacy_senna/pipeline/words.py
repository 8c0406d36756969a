"""`senna_words`: the word lookup table that the components after it share (paper §5).

SENNA's multi-task training (§5.2) trains the tasks jointly with one shared word table.
Here a `senna_words` component owns that table (and any other shared lookup: caps, a
character CNN); a component whose model has a `spacy-senna.SharedWords.v1` feature reads
it, as spaCy's components read a `tok2vec` through listeners. spaCy links them when the
pipeline is built or loaded (`find_listeners`). In `nlp.update` every listener's
backward pass adds its gradient to the table, and `finish_update` applies the sum once.
The component writes nothing on a Doc.
"""

from typing import Callable, Dict, Iterable, List, Optional, Sequence

from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer

from ..features.shared import ANY_UPSTREAM, SharedWordsFeature
from .defaults import WORD_CAPS_FEATURES
from .model_file import ChecksModelFile
from .rows import initialize_examples

DEFAULT_WORDS_MODEL = Config().from_str(
    f"""
[model]
@architectures = "spacy-senna.WordTable.v1"
{WORD_CAPS_FEATURES}
"""
)["model"]


@Language.factory("senna_words", assigns=[], default_config={"model": DEFAULT_WORDS_MODEL})
def make_senna_words(nlp: Language, name: str, model: Model) -> "SennaWords":
    """The shared word table of the senna components after it.

    model (Model): spacy-senna.WordTable.v1 with the shared features.
    """
    return SennaWords(nlp.vocab, model, name)


class SennaWords(ChecksModelFile, TrainablePipe):
    """Owns the lookup tables that later components read (`spacy-senna.SharedWords.v1`)."""

    def __init__(self, vocab: Vocab, model: Model, name: str = "senna_words") -> None:
        self.vocab = vocab
        self.model = model
        self.name = name
        self.cfg: Dict = {}
        self.listener_map: Dict[str, List[Model]] = {}

    # -- listeners (spaCy's ListenedToComponent protocol) ---------------------------------

    @property
    def listeners(self) -> List[Model]:
        """The models that read this table."""
        return [m for models in self.listener_map.values() for m in models]

    @property
    def listening_components(self) -> List[str]:
        """The names of the components that read this table."""
        return list(self.listener_map)

    def add_listener(self, listener: Model, component_name: str) -> None:
        """Register `listener` (a component's model) as a reader of this table."""
        models = self.listener_map.setdefault(component_name, [])
        if listener not in models:
            models.append(listener)

    def remove_listener(self, listener: Model, component_name: str) -> bool:
        """Forget `listener`; False if it was not registered."""
        models = self.listener_map.get(component_name, [])
        if listener not in models:
            return False
        models.remove(listener)
        if not models:
            del self.listener_map[component_name]
        return True

    def find_listeners(self, component) -> None:
        """Link the shared-table feature of `component`'s model to this table (spaCy
        calls this for every component after this one)."""
        model = getattr(component, "model", None)
        featurizer = model.attrs.get("featurizer") if isinstance(model, Model) else None
        shared = getattr(featurizer, "shared", None)
        if (
            isinstance(shared, SharedWordsFeature)
            and shared.listens
            and shared.upstream in (ANY_UPSTREAM, self.name)
        ):
            shared.link(self.model)
            self.add_listener(model, component.name)

    # -- pipeline ---------------------------------------------------------------------------

    def __call__(self, doc: Doc) -> Doc:
        """Nothing to write: the listeners embed their own windows with the table."""
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterable[Doc]:
        yield from stream

    def predict(self, docs: Iterable[Doc]) -> List[Doc]:
        return list(docs)

    def set_annotations(self, docs: Iterable[Doc], predictions: Sequence) -> None:
        return None

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """The table learns from its listeners' losses: their updates leave gradients in
        it and `finish_update` (called by `nlp.update` after every component's update)
        applies them."""
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        return losses

    def get_loss(self, examples: Iterable[Example], scores) -> None:
        raise NotImplementedError("senna_words has no loss of its own: its listeners do.")

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        corpus: Optional[Callable[[Language], Iterable[Example]]] = None,
    ) -> None:
        """Fit the dictionaries on the training docs (and nlp.vocab's vectors), then
        build the tables, before the listeners build their networks on top.

        corpus: a reader to fit the dictionaries on instead of `get_examples` (as for
            the other senna components, for a streamed training corpus).
        """
        validate_get_examples(get_examples, "SennaWords.initialize")
        get_examples = initialize_examples(self.name, get_examples, nlp, corpus)
        references = [eg.reference for eg in get_examples()]
        vocab = nlp.vocab if nlp is not None else self.vocab
        self.model.attrs["featurizer"].fit(references, vocab)
        del references
        self.model.initialize()

    def finish_update(self, sgd: Optimizer) -> None:
        """Apply the gradients the listeners accumulated in the table."""
        self.model.finish_update(sgd)
