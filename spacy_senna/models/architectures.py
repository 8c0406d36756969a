"""The registered architectures: SENNA's window and sentence networks and the senna-plus
SRL and parser networks, each a Thinc model built by `models.senna_model` around its torch network.

Every config argument of a network is documented here (`spacy train` configs name these
functions); the torch modules are in `layers/`.
"""

from functools import partial
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model

from ..layers.level_heads import LevelHeadsNetwork, level_table_flags
from ..layers.precision import check_inference_dtype
from ..layers.predicate_heads import PredicateHeadsNetwork
from ..layers.predicate_lstm import PredicateLSTMNetwork
from ..layers.sentence import SentenceNetwork
from ..layers.window import WindowNetwork
from .senna_model import forward, forward_levels, forward_sentences, senna_model
from .sequences import Sequences


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
    return senna_model(
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
    return senna_model(
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
    return senna_model(
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
    return senna_model(
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


@registry.architectures("spacy-senna.LevelHeads.v1")
def build_level_heads(
    features: Dict[str, Any],
    level_features: Sequence[str] = ("levels",),
    window_size: int = 5,
    lstm_width: int = 200,
    lstm_depth: int = 2,
    projection_width: int = 100,
    head_width: int = 100,
    head_depth: int = 1,
    hidden_width: int = 300,
    criterion: str = "sll",
    constrain_training: bool = False,
    inference_dtype: str = "float32",
    nO: Optional[int] = None,
) -> Model[List[Doc], "Sequences"]:
    """Not in SENNA: the parser with each sentence encoded once by a BiLSTM stack shared by
    its levels, then a light BiLSTM head per level copy; a drop-in for the window tagger
    under senna_parser (the window tagger reruns its whole network at every level).

    features (Dict[str, Feature]): named discrete features, as for the window tagger;
        those named in level_features change from level to level, the others are the
        sentence's (word, caps, tag_, chars ...).
    level_features (Sequence[str]): the features the heads read (the levels below, SENNA's
        PSG input: spacy-senna.SpanTagFeature.v1); the encoder reads all the others.
    window_size (int): level tags each word's head reads (odd), centred on the word.
    lstm_width (int): units per direction of each sentence BiLSTM layer.
    lstm_depth (int): sentence BiLSTM layers, run once per sentence.
    projection_width (int): width of the projection of the sentence states a head reads.
    head_width (int): units per direction of each head BiLSTM layer, run per level.
    head_depth (int): head BiLSTM layers.
    hidden_width (int): a HardTanh layer before the output; 0 = none.
    criterion (str): "sll" (CRF per level) or "wll".
    constrain_training (bool): apply the tag scheme's constraints in training too.
    inference_dtype (str): "bfloat16" runs the heads' hidden and output layers in bfloat16
        when labelling, on a CPU that computes it natively (float32 elsewhere, and always
        in training); the LSTMs stay in float32.
    nO (Optional[int]): number of tags; inferred from the component's labels.
    """
    if not level_features:
        raise ValueError("spacy-senna.LevelHeads.v1 needs level_features, e.g. ['levels']")
    return senna_model(
        "senna_level_heads",
        forward_levels,
        partial(_level_heads_network, inference_dtype=check_inference_dtype(inference_dtype)),
        features,
        nO,
        criterion=criterion,
        constrain_training=constrain_training,
        level_features=list(level_features),
        window_size=window_size,
        hidden_width=hidden_width,
        lstm_width=lstm_width,
        lstm_depth=lstm_depth,
        projection_width=projection_width,
        head_width=head_width,
        head_depth=head_depth,
    )


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


def _level_heads_network(model: Model, *, inference_dtype: str, **common: Any) -> torch.nn.Module:
    attrs = model.attrs
    columns = attrs["featurizer"].columns_of(attrs["level_features"])
    return LevelHeadsNetwork(
        inference_dtype=inference_dtype,
        level_tables=level_table_flags(columns, len(common["lookup"].table_sizes)),
        lstm_width=attrs["lstm_width"],
        lstm_depth=attrs["lstm_depth"],
        projection_width=attrs["projection_width"],
        head_width=attrs["head_width"],
        head_depth=attrs["head_depth"],
        **common,
    )
