"""One loaded pipeline shared by threads (a web service's request threads) gives every doc
exactly what a sequential call gives, cold caches included: en_senna's four layers with
its parser, called with `nlp(text)` from 8 threads and with `nlp.pipe` from 2."""

from concurrent.futures import ThreadPoolExecutor
from typing import List

import pytest
from spacy.language import Language

from spacy_senna.bundled import load

#: words no cache has seen, so every thread fills the caches at once
TEXTS = [
    f"Zyx{i} met Qrw{i} in Vbn{i}ville on Monday , and they talked about Plk{i} ."
    if i % 2
    else f"The Krt{i} company said Wqp{i} Jmn{i} would lead its office in Trs{i} ."
    for i in range(96)
]


def _cold_pipeline() -> Language:
    nlp = load()
    nlp.enable_pipe("senna_parser")
    return nlp


def _serialized(docs) -> List[bytes]:
    return [doc.to_bytes() for doc in docs]


@pytest.fixture(scope="module")
def sequential() -> List[bytes]:
    nlp = _cold_pipeline()
    return _serialized(nlp(text) for text in TEXTS)


def test_calls_from_eight_threads_equal_sequential_calls(sequential):
    nlp = _cold_pipeline()
    with ThreadPoolExecutor(8) as pool:
        docs = list(pool.map(nlp, TEXTS))
    different = [t for t, a, b in zip(TEXTS, _serialized(docs), sequential) if a != b]
    assert not different, f"{len(different)} docs differ, e.g. {different[:2]}"


def test_pipes_from_two_threads_equal_sequential_pipes():
    halves = [TEXTS[::2], TEXTS[1::2]]
    nlp = _cold_pipeline()
    expected = [_serialized(nlp.pipe(texts, batch_size=8)) for texts in halves]
    nlp = _cold_pipeline()
    with ThreadPoolExecutor(2) as pool:
        piped = list(pool.map(lambda texts: _serialized(nlp.pipe(texts, batch_size=8)), halves))
    assert piped == expected
