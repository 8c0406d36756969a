"""senna_attribute_ruler gives exactly what spaCy's AttributeRuler gives with the same patterns
(pos_, morph, lemma_ after en_senna's lemmatizer; tag_ and norm_ for rules that set them),
on en_senna's rules over random tagged docs and hand-written cases, and on random rule sets
that mix what it compiles with what it leaves to a Matcher. The docs were made for the tests."""

import random

import pytest
import spacy
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc

from spacy_senna.bundled import bundled_path, load
from spacy_senna.pipeline.attribute_map import SennaAttributeRuler

#: (words, PTB tags) for each word rule of en_senna and where its rules overlap
CASES = [
    ("Let 's go .", "VB PRP VB ."),
    ("let ’s see", "VB POS VB"),
    ("because of the rain", "IN IN DT NN"),
    ("Because it rained", "IN PRP VBD"),
    ("after we left , before leaving", "IN PRP VBD , IN VBG"),
    ("like I said , than they", "IN PRP VBD , IN PRP"),
    ("There is a cat", "EX VBZ DT NN"),
    ("Is there any ?", "VBZ EX DT ."),
    ("there may not be any", "EX MD RB VB DT"),
    ("there 's been", "EX VBZ VBN"),
    ("I have not been there", "PRP VBP RB VBN RB"),
    ("He 'd already gone", "PRP VBD RB VBN"),
    ("Do you really know ?", "VBP PRP RB VB ."),
    ("did the big dog bark", "VBD DT JJ NN VB"),
    ("I did .", "PRP VBD ."),
    ("they do not !", "PRP VBP RB ."),
    ("those are mine and these are yours", "DT VBP PRP CC DT VBP PRP"),
    ("this one , that 1 , those people", "DT CD , DT CD , DT NNS"),
    ("which one and what time", "WDT CD CC WDT NN"),
    ("nothing happened to anyone", "NN VBD IN NN"),
    ("Nobody knows everything", "NN VBZ NN"),
    (":) :-( ;) ^_^ <3 :P", "NFP NFP NFP NFP NFP NFP"),
    ("50 % / # & , :", "CD NN , : , , :"),
    ("apples , pears etc. etc", "NNS , NNS FW FW"),
    ("two 2 II", "CD CD CD"),
    ("I am , am I", "PRP VBP , VBP PRP"),
    ("n't not nt n’t", "RB RB RB RB"),
    ("better best later", "JJR JJS RBR"),
    ("gon na wan na", "VBG TO VB TO"),
    ("ca n't wo n't sha 'll ’ll 'd", "MD RB MD RB MD MD MD MD"),
    ("me him her us them mine its", "PRP PRP PRP PRP PRP PRP PRP$"),
    ("my your his her our their", "PRP$ PRP$ PRP$ PRP$ PRP$ PRP$"),
    ("the a an all both no some", "DT DT DT DT DT DT DT"),
    ("whatever whichever book", "WDT WDT NN"),
    ("being been hav having done doing", "VBG VBN VB VBG VBN VBG"),
]
FILLER = "cat run quick Paris 1999 ... - ( ) ' \" $ x the The THE LET Had".split()


@pytest.fixture(scope="module")
def nlp():
    return load()


@pytest.fixture(scope="module")
def rulers(nlp):
    plain = AttributeRuler(nlp.vocab)
    plain.add_patterns(nlp.get_pipe("attribute_ruler").patterns)
    fast = SennaAttributeRuler(nlp.vocab)
    fast.add_patterns(nlp.get_pipe("attribute_ruler").patterns)
    return plain, fast


def _values(pattern_value):
    if isinstance(pattern_value, dict):
        return pattern_value.get("IN", [])
    return [pattern_value]


def _word_tags(patterns):
    """Words the patterns name (LOWER, ORTH), each with the tags named next to it."""
    words = {}
    for rule in patterns:
        for pattern in rule["patterns"]:
            for token in pattern:
                tags = _values(token["TAG"]) if "TAG" in token else []
                for key in ("LOWER", "ORTH"):
                    for word in _values(token[key]) if key in token else []:
                        if isinstance(word, str):
                            words.setdefault(word, set()).update(tags)
    return {word: sorted(tags) for word, tags in words.items()}


def _random_docs(nlp, count, seed):
    rng = random.Random(seed)
    labels = [*nlp.get_pipe("senna_tagger").labels, "_SP"]
    word_tags = _word_tags(nlp.get_pipe("attribute_ruler").patterns)
    words = sorted(word_tags)
    docs = []
    for _ in range(count):
        tokens, tags = [], []
        for _ in range(rng.randint(0, 25)):
            word = rng.choice(words) if rng.random() < 0.7 else rng.choice(FILLER)
            case = rng.random()
            word = word.title() if case < 0.15 else word.upper() if case < 0.2 else word
            named = word_tags.get(word.lower()) or word_tags.get(word)
            tag = rng.choice(named) if named and rng.random() < 0.7 else rng.choice(labels)
            tokens.append(word)
            tags.append(tag)
        docs.append(Doc(nlp.vocab, words=tokens, tags=tags))
    return docs


def _attributes(docs):
    return [[(t.tag_, t.pos_, str(t.morph), t.lemma_, t.norm_) for t in doc] for doc in docs]


def _compare(nlp, rulers, docs, batch_size):
    plain, fast = rulers
    lemmatizer = nlp.get_pipe("lemmatizer")
    expected = list(lemmatizer.pipe(plain(doc.copy()) for doc in docs))
    got = list(lemmatizer.pipe(fast.pipe([doc.copy() for doc in docs], batch_size=batch_size)))
    assert _attributes(got) == _attributes(expected)
    return sum(len(doc) for doc in docs)


@pytest.mark.parametrize("batch_size", [1, 7, 256])
def test_en_senna_rules_on_random_tagged_docs(nlp, rulers, batch_size):
    docs = _random_docs(nlp, 300, seed=batch_size)
    assert _compare(nlp, rulers, docs, batch_size) > 3000


def test_en_senna_rules_on_written_cases(nlp, rulers):
    docs = [Doc(nlp.vocab, words=w.split(), tags=t.split()) for w, t in CASES]
    docs.append(Doc(nlp.vocab, words=["a", " ", "\n", "\t"], tags=["DT", "_SP", "_SP", "NN"]))
    _compare(nlp, rulers, docs, 1)
    _compare(nlp, rulers, docs, 64)
    doc = rulers[1](Doc(nlp.vocab, words=["is", "there"], tags=["VBZ", "EX"]))
    assert [t.pos_ for t in doc] == ["VERB", "PRON"]


@pytest.mark.filterwarnings("ignore:.*W108")
def test_docs_without_tags_or_tokens(nlp, rulers):
    docs = [Doc(nlp.vocab, words=[]), Doc(nlp.vocab, words=["a", "b"]), Doc(nlp.vocab, words=[])]
    _compare(nlp, rulers, docs, 3)


def _random_rules(rng):
    words = ["a", "b", "c", "B"]
    tags = ["X", "Y", "Z"]
    rules = []
    for _ in range(rng.randint(1, 8)):
        pattern = []
        for _ in range(rng.randint(1, 4)):
            token = {}
            kind = rng.random()
            if kind < 0.4:
                token["LOWER"] = rng.choice(words).lower()
            elif kind < 0.55:
                token["ORTH"] = {rng.choice(["IN", "NOT_IN"]): rng.sample(words, 2)}
            elif kind < 0.65:
                token["TEXT"] = {"REGEX": rng.choice(["^[ab]", "B", "c$"])}
            elif kind < 0.7:
                token["LENGTH"] = {">=": 1}  # left to the Matcher
            elif kind < 0.75:
                token["IS_UPPER"] = True
            if rng.random() < 0.5:
                token["TAG"] = rng.choice([rng.choice(tags), {"NOT_IN": rng.sample(tags, 2)}])
            if rng.random() < 0.35:
                token["OP"] = rng.choice(["?", "*", "+", "{0,2}", "{2}", "{1,}", "{,2}", "!"])
            pattern.append(token)
        attrs = {}
        for name, values, share in (
            ("POS", ["NOUN", "VERB"], 0.5),
            ("LEMMA", ["l1", "l2"], 0.4),
            ("MORPH", ["Number=Sing", "Number=Plur|Case=Nom"], 0.4),
            ("TAG", ["Y", "W"], 0.2),
            ("NORM", ["n1"], 0.1),  # left to the Matcher
        ):
            if rng.random() < share:
                attrs[name] = rng.choice(values)
        index = rng.choice([0, 0, 0, -1, -1, 1, -2, len(pattern) - 1])
        rules.append({"patterns": [pattern], "attrs": attrs or {"POS": "ADJ"}, "index": index})
    return rules


def _outcome(ruler, docs):
    try:
        done = list(ruler.pipe([doc.copy() for doc in docs], batch_size=4))
    except ValueError as error:
        return ("error", str(error).split(":")[0])
    return _attributes(done)


def test_random_rule_sets_match_spacy():
    """Quantifiers, negative targets, NOT_IN, REGEX, rules left to a Matcher ("!", ">=",
    NORM) and the errors of targets outside a match: all as spaCy's AttributeRuler."""
    rng = random.Random(7)
    nlp = spacy.blank("en")
    compiled = 0
    for _ in range(60):
        rules = _random_rules(rng)
        plain, fast = AttributeRuler(nlp.vocab), SennaAttributeRuler(nlp.vocab)
        plain.add_patterns(rules)
        fast.add_patterns(rules)
        docs = [
            Doc(
                nlp.vocab,
                words=[rng.choice(["a", "b", "c", "B", "A", "d"]) for _ in range(n)],
                tags=[rng.choice(["X", "Y", "Z"]) for _ in range(n)],
            )
            for n in [rng.randint(0, 12) for _ in range(10)]
        ]
        assert _outcome(fast, docs) == _outcome(plain, docs)
        compiled += bool(fast._compile()[0].rule_writes)  # some rules ran as arrays
    assert compiled > 30


def test_bundled_ruler_is_an_attribute_ruler(nlp, tmp_path):
    ruler = nlp.get_pipe("attribute_ruler")
    assert isinstance(ruler, SennaAttributeRuler) and isinstance(ruler, AttributeRuler)
    assert nlp.get_pipe_meta("attribute_ruler").factory == "senna_attribute_ruler"
    tables, matcher, *_ = ruler._compile()
    assert tables.sequences and matcher is None  # every rule of en_senna runs as arrays
    ruler.to_disk(tmp_path / "ruler")
    again = SennaAttributeRuler(nlp.vocab).from_disk(tmp_path / "ruler")
    assert again.patterns == ruler.patterns
    other = spacy.blank("en")
    other.add_pipe("attribute_ruler", source=spacy.load(bundled_path()))
    assert isinstance(other.get_pipe("attribute_ruler"), SennaAttributeRuler)


def test_added_rules_apply_to_the_next_doc(nlp):
    ruler = SennaAttributeRuler(nlp.vocab)
    ruler.add_patterns(nlp.get_pipe("attribute_ruler").patterns)
    doc = ruler(Doc(nlp.vocab, words=["cats"], tags=["NNS"]))
    assert doc[0].pos_ == "NOUN"
    ruler.add([[{"LOWER": "cats"}]], {"POS": "PROPN"})
    assert ruler(Doc(nlp.vocab, words=["cats"], tags=["NNS"]))[0].pos_ == "PROPN"
    ruler.clear()
    assert ruler(Doc(nlp.vocab, words=["cats"], tags=["NNS"]))[0].pos_ == ""
