"""Thinc wrapping of the torch networks: docs -> (emissions, lengths) per sequence.

A sequence is a sentence (window network: POS, CHUNK, NER) or a (sentence, predicate)
pair (sentence network or predicate BiLSTM: SRL, whose input is a list of (doc, predicate
indices) pairs); `sequences` turns docs into their batched input tensors.
The registered architectures build a Thinc `Model` whose single PyTorch shim holds the
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
from spacy.util import registry
from thinc.api import Model
from thinc.model import deserialize_attr, serialize_attr

from .about import __version__
from .features import Featurizer
from .layers.precision import check_inference_dtype
from .layers.predicate_heads import PredicateHeadsNetwork
from .layers.predicate_lstm import PredicateLSTMNetwork
from .layers.sentence import SentenceNetwork
from .layers.tagger_net import SequenceTaggerNet, build_criterion
from .layers.window import WindowNetwork
from .sequences import Sequences, featurize, featurize_predicates
from .shim import SennaPyTorchShim
from .storage import STORAGE_ATTR, state_bytes

# bump when the saved layout changes so old pipelines fail loudly instead of mis-tagging
MODEL_FORMAT = 1


@serialize_attr.register(Featurizer)
def _serialize_featurizer(_, value: Featurizer, name: str, model: Model) -> bytes:
    return srsly.msgpack_dumps(value.to_dict())


@deserialize_attr.register(Featurizer)
def _deserialize_featurizer(
    default: Featurizer, value: bytes, name: str, model: Model
) -> Featurizer:
    default.from_dict(srsly.msgpack_loads(value))
    return default


@registry.architectures("spacy-senna.WindowTagger.v1")
def build_window_tagger(
    features: Dict[str, Any],
    window_size: int = 5,
    hidden_width: int = 300,
    criterion: str = "sll",
    constrain_training: bool = False,
    doc_context: bool = False,
    context_dropout: float = 0.0,
    lstm_width: int = 0,
    lstm_window: bool = True,
    input_dropout: float = 0.0,
    inference_dtype: str = "float32",
    nO: Optional[int] = None,
) -> Model[List[Doc], "Sequences"]:
    """SENNA's window network (paper §3.3.1, Table 5) scoring every tag of every token.

    features (Dict[str, Feature]): named discrete features, each with its own lookup
        table(s), e.g. word (50), caps (5), suffix (5), or a token attribute such as tag_,
        or a character CNN (chars); null leaves a default feature out.
    window_size (int): tokens per window, centred on the tagged word (paper: 5).
    hidden_width (int): hidden units after the window layer (paper: 300).
    criterion (str): "sll" (sentence-level likelihood = CRF, paper's best) or "wll"
        (word-level softmax, paper Table 4's baseline).
    constrain_training (bool): apply the tag scheme's hard transition constraints in
        training too (they always apply in decoding); SENNA learns all transitions.
    doc_context (bool): not in SENNA: the output layer also reads the mean hidden layer
        of the word's other occurrences in the same Doc (document context, e.g. a team
        name's other mentions; zero when it occurs once). Train on Docs that hold whole
        documents (`convert --documents`) for it to see anything.
    context_dropout (float): with doc_context, the probability that a training token's
        document context is zeroed, so that Docs of one sentence are labelled well too.
    lstm_width (int): not in SENNA: units per direction of a bidirectional LSTM run over
        each sentence's word features, whose states join the window layer's input (the
        BiLSTM-CRF of Huang et al. 2015 with SENNA's window on top); 0 = none (SENNA).
    lstm_window (bool): with lstm_width, the window layer reads the LSTM states at every
        position of the window (true) or only the centre word's (false: faster, the
        states already carry the sentence around the word).
    input_dropout (float): not in SENNA: dropout on the word features (lookup tables and
        characters) in training, before the LSTM and the window layer; [training] dropout
        acts after them.
    inference_dtype (str): not in SENNA: "bfloat16" runs the window layer in bfloat16 when
        labelling, on a CPU with AVX512-BF16 or AMX; on other CPUs, on a GPU and always
        in training it computes in float32 ("float32", the default).
    nO (Optional[int]): number of tags; inferred from the component's labels.
    """
    if lstm_width < 0:
        raise ValueError(f"lstm_width must be 0 (no LSTM) or positive, got {lstm_width}")
    if not 0.0 <= context_dropout <= 1.0:
        raise ValueError(f"context_dropout must be between 0 and 1, got {context_dropout}")
    if context_dropout and not doc_context:
        raise ValueError("context_dropout needs doc_context = true (it drops document context).")
    if not 0.0 <= input_dropout < 1.0:
        raise ValueError(f"input_dropout must be at least 0 and below 1, got {input_dropout}")
    return _senna_model(
        "senna_window_tagger",
        forward,
        partial(_window_network, inference_dtype=check_inference_dtype(inference_dtype)),
        features,
        nO,
        criterion=criterion,
        constrain_training=constrain_training,
        window_size=window_size,
        hidden_width=hidden_width,
        doc_context=doc_context,
        context_dropout=context_dropout,
        lstm_width=lstm_width,
        lstm_window=lstm_window,
        input_dropout=input_dropout,
    )


@registry.architectures("spacy-senna.SentenceTagger.v1")
def build_sentence_tagger(
    features: Dict[str, Any],
    window_size: int = 5,
    conv_width: int = 300,
    hidden_width: int = 500,
    distance_width: int = 5,
    max_distance: int = 30,
    criterion: str = "sll",
    constrain_training: bool = False,
    inference_dtype: str = "float32",
    nO: Optional[int] = None,
) -> Model[List[Tuple[Doc, List[int]]], "Sequences"]:
    """SENNA's sentence (convolutional) network (paper §3.3.2, Table 5), used for SRL:
    scores every tag of every word, once per (sentence, predicate) pair.

    features (Dict[str, Feature]): named discrete word features, as for the window tagger.
    window_size (int): convolution width (paper: 5).
    conv_width (int): convolution units before the max over time (paper: 300).
    hidden_width (int): hidden units after the max (paper: 500).
    distance_width (int): width of the distance-to-predicate and distance-to-word lookup
        tables (not given in the paper; 5 like its other small features).
    max_distance (int): distances are clipped to +-max_distance (SENNA clips too).
    criterion (str): "sll" (CRF per predicate, paper's choice) or "wll".
    constrain_training (bool): apply the tag scheme's constraints in training too.
    inference_dtype (str): not in SENNA: "bfloat16" runs the convolution and the hidden
        layer in bfloat16 when labelling, on a CPU that computes it natively (as for the
        window tagger); "float32" (the default) everywhere.
    nO (Optional[int]): number of tags; inferred from the component's labels.
    """
    return _senna_model(
        "senna_sentence_tagger",
        forward_sentences,
        partial(_sentence_network, inference_dtype=check_inference_dtype(inference_dtype)),
        features,
        nO,
        criterion=criterion,
        constrain_training=constrain_training,
        window_size=window_size,
        conv_width=conv_width,
        hidden_width=hidden_width,
        distance_width=distance_width,
        max_distance=max_distance,
    )


@registry.architectures("spacy-senna.PredicateBiLSTM.v1")
def build_predicate_bilstm(
    features: Dict[str, Any],
    window_size: int = 3,
    lstm_width: int = 100,
    lstm_depth: int = 2,
    hidden_width: int = 0,
    distance_width: int = 5,
    max_distance: int = 30,
    criterion: str = "sll",
    constrain_training: bool = False,
    nO: Optional[int] = None,
) -> Model[List[Tuple[Doc, List[int]]], "Sequences"]:
    """Not in SENNA: a stack of BiLSTMs over each (sentence, predicate) row, for SRL (the
    deep BiLSTM-CRF of Zhou & Xu 2015); a drop-in for spacy-senna.SentenceTagger.v1.

    features (Dict[str, Feature]): named discrete word features, as for the sentence
        network (word, caps, chars, SENNA's PT0 segments ...).
    window_size (int): words of predicate context every word reads (odd; Zhou & Xu's
        ctx-p), centred on the predicate.
    lstm_width (int): units per direction of each BiLSTM layer.
    lstm_depth (int): BiLSTM layers (dropout between them: [training] dropout).
    hidden_width (int): a HardTanh layer before the output; 0 = none.
    distance_width (int): width of the distance-to-predicate lookup table.
    max_distance (int): distances are clipped to +-max_distance.
    criterion (str): "sll" (CRF per predicate) or "wll".
    constrain_training (bool): apply the tag scheme's constraints in training too.
    nO (Optional[int]): number of tags; inferred from the component's labels.
    """
    return _senna_model(
        "senna_predicate_bilstm",
        forward_sentences,
        _predicate_lstm_network,
        features,
        nO,
        criterion=criterion,
        constrain_training=constrain_training,
        window_size=window_size,
        hidden_width=hidden_width,
        lstm_width=lstm_width,
        lstm_depth=lstm_depth,
        distance_width=distance_width,
        max_distance=max_distance,
    )


@registry.architectures("spacy-senna.PredicateHeads.v1")
def build_predicate_heads(
    features: Dict[str, Any],
    window_size: int = 3,
    lstm_width: int = 100,
    lstm_depth: int = 2,
    projection_width: int = 64,
    head_width: int = 100,
    head_depth: int = 1,
    hidden_width: int = 0,
    distance_width: int = 5,
    max_distance: int = 30,
    criterion: str = "sll",
    constrain_training: bool = False,
    nO: Optional[int] = None,
) -> Model[List[Tuple[Doc, List[int]]], "Sequences"]:
    """Not in SENNA: SRL with each sentence encoded once by a BiLSTM stack shared by its
    predicates, then a light BiLSTM head per (sentence, predicate) row; a drop-in for
    spacy-senna.PredicateBiLSTM.v1 at a fraction of its cost per predicate.

    features (Dict[str, Feature]): named discrete word features, as for the other SRL
        networks.
    window_size (int): words of predicate context each row reads (odd), centred on the
        predicate.
    lstm_width (int): units per direction of each sentence BiLSTM layer.
    lstm_depth (int): sentence BiLSTM layers, run once per sentence.
    projection_width (int): width of the projection of the sentence states that the heads
        read (the word's, and the predicate context's).
    head_width (int): units per direction of each head BiLSTM layer, run per predicate.
    head_depth (int): head BiLSTM layers.
    hidden_width (int): a HardTanh layer before the output; 0 = none.
    distance_width (int): width of the distance-to-predicate lookup table.
    max_distance (int): distances are clipped to +-max_distance.
    criterion (str): "sll" (CRF per predicate) or "wll".
    constrain_training (bool): apply the tag scheme's constraints in training too.
    nO (Optional[int]): number of tags; inferred from the component's labels.
    """
    return _senna_model(
        "senna_predicate_heads",
        forward_sentences,
        _predicate_heads_network,
        features,
        nO,
        criterion=criterion,
        constrain_training=constrain_training,
        window_size=window_size,
        hidden_width=hidden_width,
        lstm_width=lstm_width,
        lstm_depth=lstm_depth,
        projection_width=projection_width,
        head_width=head_width,
        head_depth=head_depth,
        distance_width=distance_width,
        max_distance=max_distance,
    )


def _senna_model(
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
            raise ValueError(
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


def _window_network(model: Model, *, inference_dtype: str, **common: Any) -> torch.nn.Module:
    return WindowNetwork(
        inference_dtype=inference_dtype,
        doc_context=model.attrs["doc_context"],
        context_dropout=model.attrs["context_dropout"],
        lstm_width=model.attrs["lstm_width"],
        lstm_window=model.attrs["lstm_window"],
        input_dropout=model.attrs["input_dropout"],
        **common,
    )


def _sentence_network(model: Model, *, inference_dtype: str, **common: Any) -> torch.nn.Module:
    return SentenceNetwork(
        inference_dtype=inference_dtype,
        conv_width=model.attrs["conv_width"],
        distance_width=model.attrs["distance_width"],
        max_distance=model.attrs["max_distance"],
        **common,
    )


def _predicate_lstm_network(model: Model, **common: Any) -> torch.nn.Module:
    return PredicateLSTMNetwork(
        lstm_width=model.attrs["lstm_width"],
        lstm_depth=model.attrs["lstm_depth"],
        distance_width=model.attrs["distance_width"],
        max_distance=model.attrs["max_distance"],
        **common,
    )


def _predicate_heads_network(model: Model, **common: Any) -> torch.nn.Module:
    attrs = model.attrs
    return PredicateHeadsNetwork(
        lstm_width=attrs["lstm_width"],
        lstm_depth=attrs["lstm_depth"],
        projection_width=attrs["projection_width"],
        head_width=attrs["head_width"],
        head_depth=attrs["head_depth"],
        distance_width=attrs["distance_width"],
        max_distance=attrs["max_distance"],
        **common,
    )


def _build_net(
    model: Model, *, build_emission_net: Callable, with_initial_tables: bool
) -> SequenceTaggerNet:
    """The torch network of a senna model: emission network + criterion."""
    featurizer: Featurizer = model.attrs["featurizer"]
    n_tags = model.get_dim("nO")
    emission_net = build_emission_net(
        model,
        table_sizes=featurizer.table_sizes,
        widths=featurizer.widths,
        n_tags=n_tags,
        window_size=model.attrs["window_size"],
        hidden_width=model.attrs["hidden_width"],
        dropout=model.attrs["dropout_rate"],
        initial_tables=featurizer.initial_tables() if with_initial_tables else None,
        keep_initial=featurizer.keep_initial,
        char_cnns=featurizer.char_cnns,
        shared=featurizer.shared_lookup,
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
    net.emission_net.dropout.p = model.attrs["dropout_rate"]
    net.train(is_train)
    device = next(net.parameters()).device  # the GPU's under spacy.require_gpu
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


def _no_backprop(_):
    raise ValueError("This senna model output was computed without gradients.")


def _nothing_to_backprop(_) -> List:
    return []


def forward_sentences(model: Model, pairs: List[Tuple[Doc, List[int]]], is_train: bool):
    inputs, bounds, predicates = featurize_predicates(model, pairs, is_train)
    emissions, backprop = _scores(model, inputs, is_train)
    return Sequences(emissions, inputs[-1], bounds, predicates), backprop
