"""Not in SENNA: a window network's sentence BiLSTM pretrained as a bidirectional language
model on raw text, before `spacy train` trains the component from it (`source`).

    python -m spacy_senna pretrain-bilstm configs/lang/ner.cfg corpus/lm/lm.txt.gz \\
        pretrained/ner --steps 11680 --train-config pretrained/ner.cfg \\
        -- --nlp.lang pt --paths.train ... --paths.dev ... --paths.vectors vectors/lm
    python -m spacy train pretrained/ner.cfg -o training/ner --paths.train ... --paths.dev ...

The component is initialised as `spacy train` initialises it (its word table from the
vectors), then its word table is frozen and everything else its BiLSTM reads (caps table,
character CNN, gazetteer table) is trained with the BiLSTM: the forward states predict
the next word and the backward states the previous one, each through a projection to the
word table's width scored against the true word's row and `negatives` rows drawn by
unigram frequency^0.75 (softmax over them; padding and unknown words are no targets).
Text: a UTF-8 file (gzipped or not) of whitespace-separated tokens, read whole; each pass
takes its lines in a new random order, cut after . ! ? from 5 words on, at 60 words at
most. Written: the initialised pipeline with the pretrained weights, and with
`train_config` the config (its overrides applied) that trains the component from it.
Ctrl-C, SIGINT or SIGTERM stop the pretraining early: what is pretrained so far is still
written, the command exits with status 130, and the pipeline's meta.json says how far it
got (`bilstm_pretraining`: steps, words, seconds, why it stopped, the settings).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

import numpy
import torch
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training.initialize import init_nlp
from spacy.util import load_config
from spacy.vocab import Vocab
from thinc.api import Config, Model

from ..features.tokens import WordFeature
from ..layers.window import WindowNetwork
from ..models.senna_model import get_net
from ..models.sequences import featurize
from .progress import Progress
from .raw_text import open_corpus_text

#: chunks counted for the unigram distribution of the negatives
SAMPLE_CHUNKS = 20_000


@dataclass
class BiLSTMPretraining:
    """The settings of one pretraining run (the command's options)."""

    component: str = "senna_ner"
    steps: Optional[int] = None
    seconds: Optional[float] = None
    batch_size: int = 64
    negatives: int = 2048
    learn_rate: float = 0.002
    dropout: float = 0.1
    seed: int = 0
    report_every: int = 200


def read_lines(path: Path) -> list[str]:
    """The text file's lines (gzipped or not; a binary file is refused), read once."""
    with open_corpus_text(path) as text:
        return "".join(text).split("\n")


def text_chunks(lines: list[str], rng: numpy.random.Generator) -> Iterator[list[str]]:
    """The lines in a random order, each cut into chunks after . ! ? from 5 words on, or
    at 60 words; a line's last chunk kept from 3 words on."""
    for i in rng.permutation(len(lines)):
        chunk: list[str] = []
        for word in lines[i].split():
            chunk.append(word)
            if (word in (".", "!", "?") and len(chunk) >= 5) or len(chunk) >= 60:
                yield chunk
                chunk = []
        if len(chunk) >= 3:
            yield chunk


def _window_network(nlp: Language, name: str) -> tuple[WindowNetwork, int]:
    """The component's window network and the column of its own word table."""
    if name not in nlp.pipe_names:
        raise ValueError(f"the config has no component '{name}' (it has {nlp.pipe_names})")
    model = nlp.get_pipe(name).model
    network = get_net(model).emission_net
    if not isinstance(network, WindowNetwork) or network.lstm is None:
        raise ValueError(
            f"{name}'s network has no sentence BiLSTM to pretrain: use a "
            "spacy-senna.WindowTagger.v1 model with lstm_width > 0"
        )
    featurizer = model.attrs["featurizer"]
    words = [
        key for key, feature in featurizer.features.items() if isinstance(feature, WordFeature)
    ]
    if not words:
        raise ValueError(f"{name} has no word table of its own (spacy-senna.WordFeature.v1)")
    return network, featurizer.columns_of(words[:1]).index(True)


def _negative_distribution(
    model: Model, vocab: Vocab, chunks: Iterator[list[str]], column: int, table_rows: int
) -> numpy.ndarray:
    """Unigram frequency^0.75 over the word table's rows, counted on the first chunks."""
    sample = [Doc(vocab, words=chunk) for chunk, _ in zip(chunks, range(SAMPLE_CHUNKS + 1))]
    if not sample:
        raise ValueError("the text holds no line of 3 words or more")
    ids = featurize(model, sample, False)[0][:, column].numpy()
    counts = numpy.zeros(table_rows)
    numpy.add.at(counts, ids, 1)
    counts[:2] = 0  # padding and unknown words are no targets
    weights = counts**0.75
    if not weights.sum():
        raise ValueError("no word of the text's first lines is in the word table")
    return weights / weights.sum()


def pretrain_bilstm(
    config_path: Path, text: Path, settings: BiLSTMPretraining, overrides: dict
) -> Language:
    """The pipeline of `config_path` initialised, its component's BiLSTM pretrained on `text`."""
    if settings.steps is None and settings.seconds is None:
        raise ValueError("give --steps or --seconds: when the pretraining stops")
    lines = read_lines(text)
    torch.manual_seed(settings.seed)
    rng = numpy.random.default_rng(settings.seed)
    nlp = init_nlp(load_config(config_path, overrides=overrides, interpolate=False))
    network, column = _window_network(nlp, settings.component)
    model = nlp.get_pipe(settings.component).model
    rows = network.lookup.tables[column].num_embeddings
    # the negatives' draws come from `rng`, the projections' initial weights from torch's
    distribution = _negative_distribution(model, nlp.vocab, text_chunks(lines, rng), column, rows)
    head = _LanguageModelHead(network, column, distribution, settings, rng)
    params = [p for p in network.lookup.parameters() if p.requires_grad]
    params += list(network.lstm.parameters()) + head.parameters()
    optimizer = torch.optim.Adam(params, lr=settings.learn_rate)

    network.train()
    start = time.time()
    done = {"steps": 0, "words": 0, "stopped": "limit reached"}
    loss_sum = 0.0
    batch: list[Doc] = []
    # a bar of steps on a terminal, the report lines above it; the report lines alone otherwise
    bar = Progress(sys.stderr.isatty(), settings.steps, 0, unit="step")
    try:
        while not _done(settings, done["steps"], start):
            for chunk in text_chunks(lines, rng):
                batch.append(Doc(nlp.vocab, words=chunk))
                if len(batch) < settings.batch_size:
                    continue
                flat, index, lengths, _, _ = featurize(model, batch, False)
                batch = []
                loss = head.loss(flat, index, lengths)
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                optimizer.step()
                done["steps"] += 1
                done["words"] += int(lengths.sum())
                value = float(loss.detach())
                loss_sum += value
                bar.update(1, lambda: f"loss {value:.3f}")
                if done["steps"] % settings.report_every == 0:
                    _report(bar, done, loss_sum / settings.report_every, start)
                    loss_sum = 0.0
                if _done(settings, done["steps"], start):
                    break
    except KeyboardInterrupt:
        done["stopped"] = "interrupted"
        _say(bar, f"Interrupted at step {done['steps']}: the BiLSTM is kept as it is")
    bar.close()
    network.eval()
    done["seconds"] = round(time.time() - start)
    nlp.meta["bilstm_pretraining"] = {**done, "text": str(text), "settings": asdict(settings)}
    print(f"✔ {done['steps']} steps, {done['words']} words, {done['seconds']} s", flush=True)
    return nlp


def _report(bar: Progress, done: dict, loss: float, start: float) -> None:
    """One progress line: steps and words so far, the mean loss since the last, words/s."""
    steps, words = done["steps"], done["words"]
    speed = words / (time.time() - start)
    _say(bar, f"step {steps} words {words} loss {loss:.4f} {speed:.0f} w/s")


def _say(bar: Progress, line: str) -> None:
    """A line on stdout, or above the bar on a terminal."""
    if bar.bar is not None:
        bar.write(line)
    else:
        print(line, flush=True)


def _done(settings: BiLSTMPretraining, step: int, start: float) -> bool:
    if settings.steps is not None and step >= settings.steps:
        return True
    return settings.seconds is not None and time.time() - start > settings.seconds


class _LanguageModelHead:
    """Scores a window network's BiLSTM states as a bidirectional LM: the forward states
    predict the next word, the backward states the previous one, each through its own
    projection to the word table's width, against the true word's row and `negatives` rows
    drawn from `distribution` (sampled softmax). The word table is frozen."""

    def __init__(
        self,
        network: WindowNetwork,
        column: int,
        distribution: numpy.ndarray,
        settings: BiLSTMPretraining,
        rng: numpy.random.Generator,
    ) -> None:
        self.network = network
        self.column = column
        self.table = network.lookup.tables[column].weight
        self.table.requires_grad_(False)
        width = network.lstm.width
        self.projections = [torch.nn.Linear(width, self.table.shape[1]) for _ in range(2)]
        self.dropout = torch.nn.Dropout(settings.dropout)
        self.negatives = settings.negatives
        self.rng = rng
        self.distribution = distribution

    def parameters(self) -> list:
        return [p for layer in self.projections for p in layer.parameters()]

    def loss(self, flat: torch.Tensor, index: torch.Tensor, lengths: torch.Tensor):
        """The summed loss of both directions over a featurized batch (padding and unknown
        words are no targets)."""
        network, table = self.network, self.table
        x = self.dropout(network.lookup(flat))
        rows = index + network.half_window
        states = self.dropout(network.lstm(x, rows, lengths))
        width = network.lstm.width
        word_ids = flat[:, self.column]
        valid = torch.zeros(flat.shape[0], dtype=torch.bool)
        real = torch.arange(rows.shape[1])[None, :] < lengths[:, None]
        valid[rows[real]] = True
        forward_from = torch.nonzero(valid[:-1] & (word_ids[1:] > 1)).reshape(-1)
        backward_from = torch.nonzero(valid[1:] & (word_ids[:-1] > 1)).reshape(-1) + 1
        drawn = self.rng.choice(len(self.distribution), size=self.negatives, p=self.distribution)
        drawn = torch.from_numpy(drawn)
        negative_rows = table[drawn]
        loss = 0.0
        for sources, targets, projection, direction in (
            (forward_from, forward_from + 1, self.projections[0], states[:, :width]),
            (backward_from, backward_from - 1, self.projections[1], states[:, width:]),
        ):
            out = projection(direction[sources])
            true = (out * table[word_ids[targets]]).sum(1, keepdim=True)
            negative = out @ negative_rows.T
            negative = negative.masked_fill(drawn[None, :] == word_ids[targets][:, None], -1e4)
            logits = torch.cat([true, negative], dim=1)
            loss = loss + torch.nn.functional.cross_entropy(
                logits, torch.zeros(len(sources), dtype=torch.long)
            )
        return loss


def sourcing_config(config_path: Path, overrides: dict, component: str, pipeline: Path) -> Config:
    """`config_path` with the pretraining's `overrides` and `component` sourced from the
    pretrained `pipeline`."""
    config = load_config(config_path, overrides=overrides, interpolate=False)
    config["components"][component] = {"source": str(pipeline.resolve())}
    return config
