"""Thinc wrapping of the torch networks: docs -> (emissions, lengths) per sequence.

A sequence is a sentence (window network: POS, CHUNK, NER) or a (sentence, predicate)
pair (sentence network, predicate BiLSTM or predicate heads: SRL, whose input is a list
of (doc, predicate indices) pairs); `sequences` turns docs into their batched input
tensors. The registered architectures (`architectures`) build, through `senna_model`, a
Thinc `Model` whose single PyTorch shim holds the
whole network, criterion (CRF) included, so one optimizer step and one serialized blob
cover every parameter. The torch module is built in `initialize`, once the feature
dictionaries and the tag set are known, and rebuilt from the saved dictionaries before
weights are loaded.
"""

from functools import partial
from io import BytesIO
from typing import Any, Callable, Dict, List, Optional, Tuple

import srsly
import torch
from spacy.tokens import Doc
from thinc.api import Model
from thinc.model import deserialize_attr, serialize_attr

from ..about import __version__
from ..features import Featurizer
from ..layers.tagger_net import SequenceTaggerNet, build_criterion
from ..layers.window import flatten_windows
from .sentence_encodings import SentenceEncodings, kept_encodings
from .sequences import (
    LevelBatch,
    Sequences,
    featurize,
    featurize_levels,
    featurize_predicates,
    level_batch,
    level_rows,
)
from .shim import SennaPyTorchShim
from .storage import STORAGE_ATTR, state_bytes

# bump when the saved layout changes so old pipelines fail loudly instead of mis-tagging
MODEL_FORMAT = 1


class ModelFormatError(ValueError):
    """A model saved in another format (`MODEL_FORMAT`) than this spacy-senna reads."""


@serialize_attr.register(Featurizer)
def _serialize_featurizer(_, value: Featurizer, name: str, model: Model) -> bytes:
    return srsly.msgpack_dumps(value.to_dict())


@deserialize_attr.register(Featurizer)
def _deserialize_featurizer(
    default: Featurizer, value: bytes, name: str, model: Model
) -> Featurizer:
    default.from_dict(srsly.msgpack_loads(value))
    return default


def senna_model(
    name: str,
    forward_fn: Callable,
    build_emission_net: Callable[..., torch.nn.Module],
    features: Dict[str, Any],
    nO: Optional[int],
    *,
    criterion: str,
    constrain_training: bool,
    **layout: Any,
) -> Model:
    """A senna Thinc model: its featurizer, the network's layout and training settings as
    attrs, and a PyTorch shim whose network `init` builds (with `build_emission_net`)
    once the tags are known."""
    if criterion not in ("sll", "wll"):
        raise ValueError(f"criterion must be 'sll' or 'wll', got '{criterion}'")
    model: Model = Model(
        name,
        forward_fn,
        init=partial(init, build_emission_net=build_emission_net),
        dims={"nO": nO},
        attrs={
            "featurizer": Featurizer(features),
            **layout,
            "criterion": criterion,
            "constrain_training": constrain_training,
            "tag_constraints": None,
            "dropout_rate": 0.0,
        },
    )
    return add_torch_shim(
        model, partial(_build_net, build_emission_net=build_emission_net, with_initial_tables=False)
    )


def add_torch_shim(model: Model, rebuild: Callable[[Model], torch.nn.Module]) -> Model:
    """Give a senna Thinc model its PyTorch shim and the attrs it is saved with.

    The shim holds a placeholder until the model's `init` builds the network. Its weights
    are saved in the model's storage dtype; loading checks the saved format, builds the
    network again with `rebuild(model)` (the attrs are restored by then) and reads the
    weights into it, or keeps the placeholder for a model saved before initialize.
    """
    model.attrs.update(
        {"format": MODEL_FORMAT, "senna_version": __version__, STORAGE_ATTR: "float32"}
    )

    def serialize(net: torch.nn.Module) -> bytes:
        return state_bytes(net, model.attrs.get(STORAGE_ATTR, "float32"))

    def deserialize(_: torch.nn.Module, state: bytes, device: torch.device) -> torch.nn.Module:
        if model.attrs["format"] != MODEL_FORMAT:
            raise ModelFormatError(
                f"This pipeline was saved by spacy-senna {model.attrs['senna_version']} "
                f"(model format {model.attrs['format']}); this spacy-senna ({__version__}) "
                f"reads format {MODEL_FORMAT}. Retrain it or install the matching version."
            )
        weights = torch.load(BytesIO(state), map_location=device)
        if not weights:  # saved before initialize: nothing to rebuild
            return torch.nn.Identity()
        net = rebuild(model)
        net.load_state_dict(weights)
        return net.to(device)

    model.shims.append(
        SennaPyTorchShim(
            torch.nn.Identity(), serialize_model=serialize, deserialize_model=deserialize
        )
    )
    return model


def _build_net(
    model: Model, *, build_emission_net: Callable, with_initial_tables: bool
) -> SequenceTaggerNet:
    """The torch network of a senna model: emission network + criterion."""
    featurizer: Featurizer = model.attrs["featurizer"]
    n_tags = model.get_dim("nO")
    emission_net = build_emission_net(
        model,
        lookup=featurizer.lookup_spec(with_initial_tables),
        n_tags=n_tags,
        window_size=model.attrs["window_size"],
        hidden_width=model.attrs["hidden_width"],
        dropout=model.attrs["dropout_rate"],
    )
    criterion = build_criterion(
        model.attrs["criterion"],
        n_tags,
        allowed=model.attrs["tag_constraints"],
        constrain_training=model.attrs["constrain_training"],
    )
    return SequenceTaggerNet(emission_net, criterion)


def init(
    model: Model, X: Optional[List[Doc]] = None, Y=None, *, build_emission_net: Callable
) -> Model:
    """Build the torch network; the featurizer must already be fitted (component does it)."""
    if not model.has_dim("nO"):
        raise ValueError("The senna model needs its number of tags (nO) before initialize.")
    shim = model.shims[0]
    net = _build_net(model, build_emission_net=build_emission_net, with_initial_tables=True)
    shim._model = net.to(shim.device)
    return model


def get_net(model: Model) -> SequenceTaggerNet:
    """The torch network inside a senna Thinc model (after initialize)."""
    net = model.shims[0]._model
    if not isinstance(net, SequenceTaggerNet):
        raise ValueError("The senna model is not initialized: call nlp.initialize() first.")
    return net


def _scores(model: Model, inputs: Tuple, is_train: bool) -> Tuple[torch.Tensor, Callable]:
    """The network's emissions for featurized `inputs`, and their backprop: gradients only
    in training, and none to pass back when the batch held no sequence to score."""
    net = get_net(model)
    dropout = net.emission_net.dropout
    if dropout.p != model.attrs["dropout_rate"]:  # a module's setattr costs a few us
        dropout.p = model.attrs["dropout_rate"]
    if net.training != is_train:  # train() visits every submodule: not once per call
        net.train(is_train)
    device = net.criterion.transitions.device  # the GPU's under spacy.require_gpu
    if device.type != "cpu":  # the inputs are made on the CPU
        inputs = tuple(x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs)
    if not is_train:
        with torch.no_grad():
            return net(*inputs), _no_backprop
    emissions = net(*inputs)
    if not emissions.requires_grad:  # empty batch: the network returned plain zeros
        return emissions, _nothing_to_backprop

    def backprop(d_emissions: torch.Tensor) -> List:
        emissions.backward(d_emissions)
        return []

    return emissions, backprop


def forward(model: Model, docs: List[Doc], is_train: bool):
    flat, index, lengths, bounds, context = featurize(model, docs, is_train)
    emissions, backprop = _scores(model, (flat, index, context, lengths), is_train)
    return Sequences(emissions, lengths, bounds), backprop


def forward_levels(model: Model, docs: List[Doc], is_train: bool):
    """A network that encodes each distinct sentence of the batch once (the parser's
    level heads): docs -> one sequence per sentence, as `forward`. When labelling inside
    `encodings_kept(model)`, a sentence encoded by an earlier call is not encoded again."""
    encodings = None if is_train else kept_encodings(model)
    if encodings is not None:
        return level_scores(model, level_batch(model, docs), encodings), _no_backprop
    inputs, bounds = featurize_levels(model, docs, is_train)
    emissions, backprop = _scores(model, inputs, is_train)
    return Sequences(emissions, inputs[-1], bounds), backprop


def level_scores(model: Model, batch: LevelBatch, encodings: SentenceEncodings) -> Sequences:
    """The scores of a batch of level copies when labelling, encoding only the sentences
    `encodings` lacks (and keeping theirs)."""
    half_window = model.attrs["window_size"] // 2
    net = get_net(model)
    if net.training:
        net.eval()
    device = next(net.parameters()).device
    level_flat, level_index, lengths = level_rows(batch, half_window)
    new = encodings.missing(batch.keys)
    with torch.no_grad():
        if new:
            flat, index = flatten_windows([batch.sentences[i] for i in new], half_window)
            index = torch.from_numpy(index)
            new_lengths = torch.tensor([len(batch.sentences[i]) for i in new], dtype=torch.long)
            words = net.emission_net.encode(
                torch.from_numpy(flat).to(device), index.to(device), new_lengths
            )
            encodings.add([batch.keys[i] for i in new], words, index[:, 0] + half_window)
        row_sentence = torch.tensor(batch.row_sentence, dtype=torch.long)
        token_rows = encodings.token_rows(batch.keys, row_sentence, lengths, level_index.shape[1])
        emissions = net.emission_net.score_levels(
            encodings.words,
            token_rows.to(device),
            level_flat.to(device),
            level_index.to(device),
            lengths,
        )
    return Sequences(emissions, lengths, batch.bounds)


def _no_backprop(_):
    raise ValueError("This senna model output was computed without gradients.")


def _nothing_to_backprop(_) -> List:
    return []


def forward_sentences(model: Model, pairs: List[Tuple[Doc, List[int]]], is_train: bool):
    inputs, bounds, predicates = featurize_predicates(model, pairs, is_train)
    emissions, backprop = _scores(model, inputs, is_train)
    return Sequences(emissions, inputs[-1], bounds, predicates), backprop
