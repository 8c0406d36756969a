"""Lookup tables (paper §3.2, eq. 2): one embedding table per discrete feature column,
and a character CNN per character feature."""

from typing import Callable, Iterator, Optional, Sequence, Union

import numpy
import torch
from torch import Tensor, nn
from torch.nn.functional import embedding

from ..runtime.last_call import LastCall
from .char_cnn import CharCNN, CharCNNSpec
from .kept_encodings import KeptEncodings
from .watched_tensors import Source, WatchedTensors

#: a call of at most this many rows (a text labelled alone) at inference on the CPU takes
#: each row's output from the rows kept by earlier calls, keyed by the row's ids: one
#: gather where the tables, the character CNNs' stores and the join cost several
#: operations each (an EWT text: the tagger's lookup 101 -> 36 us, the ner's 77 -> 33)
KEPT_ROWS_CALL = 256
#: outputs kept per lookup before its store starts again (7 MB at en_senna's 90 floats a
#: row; the most frequent words come back first after a restart)
KEPT_ROWS = 20_000


class FeatureLookup(nn.Module):
    """Embeds K columns of feature ids with K tables and concatenates them, followed by
    the outputs of the character CNNs, each reading the next block of columns.

    Tables are initialised uniformly in [-1, 1] (fan-in 1, the paper's Torch-style
    convention, §4.6); rows given in `initial_tables` (NaN rows = keep random) are copied
    in, e.g. LM-pretrained word vectors, and stay trainable (SENNA fine-tunes them).

    :param table_sizes: rows of each table (PADDING = 0 and UNKNOWN = 1 included).
    :param widths: embedding width of each table.
    :param keep_initial: per table, whether its rows given in `initial_tables` keep their
        values in training (no gradient reaches them); the other rows still learn.
    :param char_cnns: the character CNNs after the tables (none in SENNA's models).
    :param shared: returns another `FeatureLookup` (a shared word table, paper §5) that
        embeds the last columns. It is called at each use and is not a submodule: its
        parameters are saved and updated by their owner, gradients accumulate there.
        A `FeatureLookup` given itself is this network's own copy of such a table (see
        `own_words`): a submodule, saved and trained with this network.

    At inference on the CPU a short call (`KEPT_ROWS_CALL` rows: a text labelled alone)
    whose rows were all seen gathers each row's output from those kept by earlier calls
    (`KeptEncodings`, keyed by the row's ids, forgotten when any weight read moves): the
    same numbers, as every row's output depends on its own ids only. A call with a new
    row computes all its rows, as before, so the shared word table's last call still
    serves the next component that reads the same doc.

    *Shape:* ids ``(..., n_columns)`` -> ``(..., width)``; the networks pass
    flat rows ``(n_rows, n_columns)`` (every sentence of a batch laid end to end)
    """

    def __init__(
        self,
        *,
        table_sizes: Sequence[int],
        widths: Sequence[int],
        initial_tables: Optional[Sequence[Optional[numpy.ndarray]]] = None,
        keep_initial: Sequence[bool] = (),
        char_cnns: Sequence[CharCNNSpec] = (),
        shared: Union[Callable[[], "FeatureLookup"], "FeatureLookup", None] = None,
        remember_last: bool = False,
    ):
        super().__init__()
        if remember_last and shared is not None:
            raise ValueError("A lookup that remembers its last call embeds its own columns only.")
        self.last = LastCall() if remember_last else None
        self.kept_rows = KeptEncodings(max_rows=KEPT_ROWS)
        self.watched = WatchedTensors()
        if len(table_sizes) != len(widths):
            raise ValueError("FeatureLookup needs one width per table")
        self.tables = nn.ModuleList(nn.Embedding(n, w) for n, w in zip(table_sizes, widths))
        #: the tables whose initialised rows are kept, each with a `kept_rows_{k}` mask
        #: (a buffer: saved with the weights, so a loaded model keeps them too)
        self.kept_tables = [k for k, keep in enumerate(keep_initial) if keep]
        for k, table in enumerate(self.tables):
            nn.init.uniform_(table.weight, -1.0, 1.0)
            init = initial_tables[k] if initial_tables is not None else None
            known = torch.zeros(table.num_embeddings, dtype=torch.bool)
            if init is not None:
                rows = torch.as_tensor(init, dtype=table.weight.dtype)
                known = ~torch.isnan(rows).any(dim=1)
                with torch.no_grad():
                    table.weight[known] = rows[known]
            if k in self.kept_tables:
                self.register_buffer(f"kept_rows_{k}", known)
        self.chars = nn.ModuleList(CharCNN(spec) for spec in char_cnns)
        self.own_columns = len(self.tables) + sum(cnn.n_columns for cnn in self.chars)
        self.shared = None
        self.words: Optional[FeatureLookup] = None
        if isinstance(shared, FeatureLookup):
            self.own_words(shared)
        else:
            self.shared = shared

    def own_words(self, lookup: "FeatureLookup") -> None:
        """Embed the last columns with `lookup`, a copy of the shared table that this
        network now owns (`nlp.replace_listeners`), instead of the shared one."""
        self.shared = None
        self.words = lookup

    def _word_lookup(self) -> Optional["FeatureLookup"]:
        """The lookup of the last columns: this network's own copy, the shared one, or none."""
        if self.words is not None:
            return self.words
        return self.shared() if self.shared is not None else None

    @property
    def n_columns(self) -> int:
        words = self._word_lookup()
        return self.own_columns + (words.n_columns if words is not None else 0)

    @property
    def width(self) -> int:
        own = sum(t.embedding_dim for t in self.tables) + sum(c.width for c in self.chars)
        words = self._word_lookup()
        return own + (words.width if words is not None else 0)

    def forward(self, ids: Tensor) -> Tensor:
        if ids.shape[-1] != self.n_columns:
            raise ValueError(
                f"FeatureLookup expects {self.n_columns} feature columns, got {ids.shape[-1]}"
            )
        if torch.is_grad_enabled() or ids.device.type != "cpu":
            return self._embed(ids)
        if self.last is None:
            if ids.dim() == 2 and len(ids) <= KEPT_ROWS_CALL:
                versions = self._all_weight_versions()
                return self.kept_rows.encodings(ids, self._embed, versions, whole=True)
            return self._embed(ids)
        key = (
            ids.numpy().tobytes(),
            tuple(ids.shape),
            self._weight_versions(),
            torch.is_inference_mode_enabled(),
        )
        kept = self.last.get(key)
        return kept if kept is not None else self.last.keep(key, self._embed(ids))

    def _weight_versions(self) -> tuple:
        """The version of every tensor the output reads (in-place changes move them), read
        from the tensors found once (`WatchedTensors`)."""
        return self.watched.versions(self._weight_sources)

    def _weight_sources(self) -> Iterator[Source]:
        for table in self.tables:
            yield table, "weight"
        for cnn in self.chars:
            yield from cnn.weight_sources()

    def _all_weight_versions(self) -> tuple:
        """`_weight_versions` with those of the word lookup of the last columns, if any."""
        words = self._word_lookup()
        own = self._weight_versions()
        return own if words is None else own + (id(words),) + words._weight_versions()

    def _embed(self, ids: Tensor) -> Tensor:
        if torch.is_grad_enabled():
            parts = [table(ids[..., k]) for k, table in enumerate(self.tables)]
            for k in self.kept_tables:
                kept = getattr(self, f"kept_rows_{k}")[ids[..., k]]
                parts[k] = torch.where(kept[..., None], parts[k].detach(), parts[k])
        elif ids.device.type == "cpu":
            rows = ids.numpy()
            parts = [_taken_rows(t.weight, rows[..., k]) for k, t in enumerate(self.tables)]
        else:  # the lookups without a module call each
            parts = [embedding(ids[..., k], t.weight) for k, t in enumerate(self.tables)]
        col = len(self.tables)
        for cnn in self.chars:
            parts.append(cnn(ids[..., col : col + cnn.n_columns]))
            col += cnn.n_columns
        words = self._word_lookup()
        if words is not None:
            parts.append(words(ids[..., col:]))
        return torch.cat(parts, dim=-1)


def _taken_rows(weight: Tensor, rows: numpy.ndarray) -> Tensor:
    """`embedding(rows, weight)` at inference on the CPU: the rows taken as arrays where
    NumPy holds the weight's dtype (1 us against `embedding`'s 5.7 for a short text)."""
    if weight.dtype not in (torch.float32, torch.float64, torch.float16):
        return embedding(torch.from_numpy(rows), weight)
    return torch.from_numpy(weight.detach().numpy().take(rows, axis=0))
