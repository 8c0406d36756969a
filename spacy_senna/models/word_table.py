"""The model of `senna_words`: one set of lookup tables that several components share
(paper §5, multi-task learning: "the lookup table of words is shared").

A Thinc model holding a featurizer and, in its PyTorch shim, the `FeatureLookup` that
embeds its columns (word table, caps, a character CNN ...). It has no forward pass of
its own: each listening component's network calls the lookup on its own windows, and
their gradients accumulate in these parameters until `senna_words` applies them.
"""

from functools import partial
from typing import Any, Dict, List

import torch
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model

from ..features import Featurizer
from ..features.shared import WORD_TABLE_NAME, upstream_lookup
from ..layers.lookup import FeatureLookup
from .senna_model import add_torch_shim


@registry.architectures("spacy-senna.WordTable.v1")
def build_word_table(features: Dict[str, Any]) -> Model[List[Doc], List[Doc]]:
    """Lookup tables shared by the components that read them through
    `spacy-senna.SharedWords.v1` (paper §5).

    features (Dict[str, Feature]): the shared features, e.g. word (50, initialised from
        the LM vectors), caps (5) and a character CNN; null leaves one out.
    """
    model: Model = Model(
        WORD_TABLE_NAME,
        _forward,
        init=_init,
        attrs={
            # several components read each doc's ids and embeddings in turn
            "featurizer": Featurizer(features, remember_last=True),
            "replace_listener": replace_listener,
        },
    )
    return add_torch_shim(model, partial(_lookup, with_initial_tables=False))


def _forward(model: Model, docs: List[Doc], is_train: bool):
    # the listeners embed their own windows with the lookup; the docs pass through
    return docs, lambda d_docs: d_docs


def _lookup(model: Model, with_initial_tables: bool) -> FeatureLookup:
    featurizer: Featurizer = model.attrs["featurizer"]
    return featurizer.lookup_spec(with_initial_tables).build(remember_last=True)


def _init(model: Model, X=None, Y=None) -> Model:
    """Build the lookup tables; the featurizer must already be fitted (senna_words does it)."""
    shim = model.shims[0]
    shim._model = _lookup(model, with_initial_tables=True).to(shim.device)
    return model


def replace_listener(table: Model, listener: Model, words: Any = None) -> Model:
    """`nlp.replace_listeners` support: `listener` (a component's model that reads the
    shared table) takes `table`, the copy of the senna_words model that spaCy made, as
    its own table: its featurizer reads the copy's columns and its network embeds them
    with the copy's lookup, a submodule from now on (saved and trained with it). spaCy
    has already written the table's config into the component's (e.g. at
    model.features.shared), which builds the same again when the pipeline is loaded."""
    listener.attrs["featurizer"].own_words(table)
    net = listener.shims[0]._model if listener.shims else None
    if net is not None and not isinstance(net, torch.nn.Identity):
        for module in net.modules():
            if isinstance(module, FeatureLookup) and module.shared is not None:
                module.own_words(upstream_lookup(table))
    return listener
