"""Add the attributes spaCy apps read to en_senna: `token.pos_` (UPOS), `token.morph` and
`token.lemma_`, from spaCy's own components placed after senna_tagger.

    python scripts/add_attributes.py PIPELINE_DIR [--output DIR]

* an `attribute_ruler` (spaCy's AttributeRuler from spacy-senna's `senna_attribute_ruler`
  factory, which sets the same attributes with array lookups) with the table below: every
  PTB tag of UD English-EWT (the tags senna_tagger predicts, and "_SP" for whitespace) to
  its UPOS and the morphological features the tag implies, then a few word-specific rules
  (auxiliaries, pronouns, subordinating conjunctions, determiners used as pronouns)
  following UD English-EWT's annotation. A table written for this project from the PTB and
  UD guidelines; the choices where they differ follow how UD English-EWT v2.16 annotates its
  train set.
* spaCy's English `lemmatizer` in "rule" mode (it reads `pos_` and `morph`; spacy-senna's
  `senna_lemmatizer` factory, which gives the same lemmas a batch at a time), with the
  tables lemma_rules, lemma_exc and lemma_index of spacy-lookups-data (MIT; derived from
  WordNet 3.0, whose license goes into the lemmatizer's folder) stored in the pipeline: the
  package spacy-lookups-data is needed here, to build, not to load or run the pipeline.

Run again on a pipeline that has them, it replaces them (the same files for the same table
and tables). Given an existing pipeline folder, only its config.cfg and meta.json and the
two new component folders are written; every other file stays as it was.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import spacy
from prune_strings import prune_strings
from spacy.language import Language
from spacy.lookups import Lookups, load_lookups

AFTER = "senna_tagger"
RULER = "attribute_ruler"
#: the ruler's factory: spaCy's AttributeRuler, applied with arrays (same patterns and outputs)
RULER_FACTORY = "senna_attribute_ruler"
LEMMATIZER = "lemmatizer"
#: the lemmatizer's factory: spaCy's English rule lemmatizer, by distinct key (same outputs)
LEMMATIZER_FACTORY = "senna_lemmatizer"
LEMMA_TABLES = ("lemma_rules", "lemma_exc", "lemma_index")
LICENSE_NAME = "WordNet-LICENSE.txt"
SOURCE = (
    "spaCy's English lemmatizer tables (spacy-lookups-data, MIT; derived from WordNet 3.0, "
    "Princeton University, WordNet 3.0 license in lemmatizer/" + LICENSE_NAME + "): lemmas"
)

#: PTB tag (UD English-EWT's XPOS set, with "_SP" for whitespace and a few tags of other PTB
#: variants) -> (UPOS, features the tag alone implies)
TAG_MAP: dict[str, tuple[str, str]] = {
    ".": ("PUNCT", ""),
    ",": ("PUNCT", ""),
    ":": ("PUNCT", ""),
    "``": ("PUNCT", ""),
    "''": ("PUNCT", ""),
    '""': ("PUNCT", ""),
    "-LRB-": ("PUNCT", ""),
    "-RRB-": ("PUNCT", ""),
    "HYPH": ("PUNCT", ""),
    "NFP": ("PUNCT", ""),
    "$": ("SYM", ""),
    "#": ("SYM", ""),
    "SYM": ("SYM", ""),
    "ADD": ("PROPN", ""),  # e-mail and web addresses: PROPN in UD English-EWT
    "AFX": ("X", ""),
    "CC": ("CCONJ", ""),
    "CD": ("NUM", "NumForm=Digit|NumType=Card"),
    "DT": ("DET", ""),
    "EX": ("PRON", ""),
    "FW": ("X", "Foreign=Yes"),
    "GW": ("X", ""),
    "IN": ("ADP", ""),
    "JJ": ("ADJ", "Degree=Pos"),
    "JJR": ("ADJ", "Degree=Cmp"),
    "JJS": ("ADJ", "Degree=Sup"),
    "LS": ("NUM", "NumForm=Digit|NumType=Card"),
    "MD": ("AUX", "VerbForm=Fin"),
    "NN": ("NOUN", "Number=Sing"),
    "NNS": ("NOUN", "Number=Plur"),
    "NNP": ("PROPN", "Number=Sing"),
    "NNPS": ("PROPN", "Number=Plur"),
    "PDT": ("DET", ""),
    "POS": ("PART", ""),
    "PRP": ("PRON", "PronType=Prs"),
    "PRP$": ("PRON", "Poss=Yes|PronType=Prs"),
    "RB": ("ADV", ""),
    "RBR": ("ADV", "Degree=Cmp"),
    "RBS": ("ADV", "Degree=Sup"),
    "RP": ("ADP", ""),
    "TO": ("PART", ""),
    "UH": ("INTJ", ""),
    "VB": ("VERB", "VerbForm=Inf"),
    "VBD": ("VERB", "Mood=Ind|Tense=Past|VerbForm=Fin"),
    "VBG": ("VERB", "Tense=Pres|VerbForm=Part"),
    "VBN": ("VERB", "Tense=Past|VerbForm=Part"),
    "VBP": ("VERB", "Mood=Ind|Tense=Pres|VerbForm=Fin"),
    "VBZ": ("VERB", "Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin"),
    "WDT": ("PRON", "PronType=Rel"),
    "WP": ("PRON", "PronType=Rel"),
    "WP$": ("PRON", "Poss=Yes|PronType=Rel"),
    "WRB": ("ADV", "PronType=Int"),
    "XX": ("X", ""),
    "NIL": ("X", ""),
    "BES": ("AUX", ""),
    "HVS": ("AUX", ""),
    "_SP": ("SPACE", ""),
}

VERB_TAGS = ["VB", "VBD", "VBG", "VBN", "VBP", "VBZ"]
NOMINAL_TAGS = ["NN", "NNS", "NNP", "NNPS", "JJ", "JJR", "JJS", "CD", "ADD", "AFX", "FW", "GW"]
#: forms of "be", "have", "do" (lowercased, with the clitics and the apostrophe variants)
BE = "be am 'm ’m m are 're ’re re r is 's ’s s was were been being ai".split()
HAVE = ["have", "has", "had", "having", "'ve", "’ve", "ve", "'d", "’d", "hav"]
DO = ["do", "does", "did", "doing", "done"]
#: modal -> lemma, where the lemma is not the lowercased form
MODAL_LEMMAS = {
    "ca": "can",
    "wo": "will",
    "'ll": "will",
    "’ll": "will",
    "ll": "will",
    "'d": "would",
    "’d": "would",
    "sha": "shall",
}
NEGATION = ["not", "n't", "n’t", "nt"]
#: personal pronoun (PRP) -> lemma (UD English-EWT's: the nominative, "my" for "mine"),
#: features
PRONOUNS = {
    "i": ("I", "Case=Nom|Number=Sing|Person=1|PronType=Prs"),
    "me": ("I", "Case=Acc|Number=Sing|Person=1|PronType=Prs"),
    "you": ("you", "Person=2|PronType=Prs"),
    "u": ("you", "Person=2|PronType=Prs"),
    "he": ("he", "Case=Nom|Gender=Masc|Number=Sing|Person=3|PronType=Prs"),
    "him": ("he", "Case=Acc|Gender=Masc|Number=Sing|Person=3|PronType=Prs"),
    "she": ("she", "Case=Nom|Gender=Fem|Number=Sing|Person=3|PronType=Prs"),
    "her": ("she", "Case=Acc|Gender=Fem|Number=Sing|Person=3|PronType=Prs"),
    "it": ("it", "Gender=Neut|Number=Sing|Person=3|PronType=Prs"),
    "we": ("we", "Case=Nom|Number=Plur|Person=1|PronType=Prs"),
    "us": ("we", "Case=Acc|Number=Plur|Person=1|PronType=Prs"),
    "they": ("they", "Case=Nom|Number=Plur|Person=3|PronType=Prs"),
    "them": ("they", "Case=Acc|Number=Plur|Person=3|PronType=Prs"),
    "mine": ("my", "Number=Sing|Person=1|Poss=Yes|PronType=Prs"),
    "yours": ("your", "Person=2|Poss=Yes|PronType=Prs"),
    "his": ("his", "Gender=Masc|Number=Sing|Person=3|Poss=Yes|PronType=Prs"),
    "hers": ("her", "Gender=Fem|Number=Sing|Person=3|Poss=Yes|PronType=Prs"),
    "ours": ("our", "Number=Plur|Person=1|Poss=Yes|PronType=Prs"),
    "theirs": ("their", "Number=Plur|Person=3|Poss=Yes|PronType=Prs"),
    "myself": ("myself", "Case=Acc|Number=Sing|Person=1|PronType=Prs|Reflex=Yes"),
    "yourself": ("yourself", "Case=Acc|Number=Sing|Person=2|PronType=Prs|Reflex=Yes"),
    "himself": ("himself", "Case=Acc|Gender=Masc|Number=Sing|Person=3|PronType=Prs|Reflex=Yes"),
    "herself": ("herself", "Case=Acc|Gender=Fem|Number=Sing|Person=3|PronType=Prs|Reflex=Yes"),
    "itself": ("itself", "Case=Acc|Gender=Neut|Number=Sing|Person=3|PronType=Prs|Reflex=Yes"),
    "ourselves": ("ourselves", "Case=Acc|Number=Plur|Person=1|PronType=Prs|Reflex=Yes"),
    "yourselves": ("yourselves", "Case=Acc|Number=Plur|Person=2|PronType=Prs|Reflex=Yes"),
    "themselves": ("themselves", "Case=Acc|Number=Plur|Person=3|PronType=Prs|Reflex=Yes"),
}
#: possessive determiner (PRP$) -> features (the lemma is the lowercased form)
POSSESSIVES = {
    "my": "Case=Gen|Number=Sing|Person=1|Poss=Yes|PronType=Prs",
    "your": "Case=Gen|Person=2|Poss=Yes|PronType=Prs",
    "his": "Case=Gen|Gender=Masc|Number=Sing|Person=3|Poss=Yes|PronType=Prs",
    "her": "Case=Gen|Gender=Fem|Number=Sing|Person=3|Poss=Yes|PronType=Prs",
    "its": "Case=Gen|Gender=Neut|Number=Sing|Person=3|Poss=Yes|PronType=Prs",
    "our": "Case=Gen|Number=Plur|Person=1|Poss=Yes|PronType=Prs",
    "their": "Case=Gen|Number=Plur|Person=3|Poss=Yes|PronType=Prs",
}
#: determiner (DT) -> lemma, features
DETERMINERS = {
    "the": ("the", "Definite=Def|PronType=Art"),
    "a": ("a", "Definite=Ind|PronType=Art"),
    "an": ("a", "Definite=Ind|PronType=Art"),
    "this": ("this", "Number=Sing|PronType=Dem"),
    "that": ("that", "Number=Sing|PronType=Dem"),
    "these": ("this", "Number=Plur|PronType=Dem"),
    "those": ("that", "Number=Plur|PronType=Dem"),
    "all": ("all", "PronType=Tot"),
    "both": ("both", "PronType=Tot"),
    "each": ("each", "PronType=Tot"),
    "every": ("every", "PronType=Tot"),
    "no": ("no", "PronType=Neg"),
    "neither": ("neither", "PronType=Neg"),
    "some": ("some", "PronType=Ind"),
    "any": ("any", "PronType=Ind"),
    "another": ("another", "PronType=Ind"),
    "either": ("either", "PronType=Ind"),
}
#: (tag, lowercased word) -> lemma, where the tables give another one than UD English-EWT
LEMMAS = {
    ("JJR", "better"): "good",
    ("JJS", "best"): "good",
    ("RBR", "later"): "late",
    ("TO", "na"): "to",
    ("VBG", "gon"): "go",
    ("VB", "wan"): "want",
}
#: emoticons, :) ;-) :D =( ^_^ and the like (NFP; SYM in UD English-EWT)
EMOTICON = r"^([:;=8xX][-'^o]?[()\[\]DPpOo3/\\|*@$]+|[()][-'^o]?[:;=]|\^_*\^|<3+)$"
DEMONSTRATIVES = ["this", "that", "these", "those"]
#: nouns (NN) that UD English-EWT makes pronouns -> their PronType
NOUN_PRONOUNS = {
    **dict.fromkeys(["something", "anything", "someone", "anyone", "somebody", "anybody"], "Ind"),
    **dict.fromkeys(["everything", "everyone", "everybody"], "Tot"),
    **dict.fromkeys(["nothing", "nobody", "noone", "none"], "Neg"),
}
#: prepositions (IN) that introduce a clause whatever follows
SUBORDINATORS = (
    "that if whether because although though while whilst unless whereas so once cause cuz coz"
).split()
#: prepositions (IN) that also introduce clauses: a subordinator before a subject pronoun
BOTH = ["as", "after", "before", "since", "until", "till", "like", "than"]
SUBJECT_PRONOUNS = ["i", "he", "she", "we", "they", "you", "it", "there"]


def _rule(pattern, attrs: dict, index: int = 0) -> dict:
    patterns = pattern if isinstance(pattern[0], list) else [pattern]
    return {"patterns": patterns, "attrs": attrs, "index": index}


def _attrs(pos: str | None = None, morph: str | None = None, lemma: str | None = None) -> dict:
    attrs = {}
    if pos is not None:
        attrs["POS"] = pos
    if morph:
        attrs["MORPH"] = morph
    if lemma is not None:
        attrs["LEMMA"] = lemma
    return attrs


def attribute_patterns() -> list[dict]:
    """The attribute_ruler's rules, in order: later rules win where several match."""
    rules = [_rule([{"TAG": tag}], _attrs(pos, morph)) for tag, (pos, morph) in TAG_MAP.items()]
    rules.append(_rule([{"IS_SPACE": True}], {"POS": "SPACE"}))
    # numbers written in words; list items; "etc." (FW, a NOUN in UD English-EWT)
    rules.append(
        _rule([{"TAG": "CD", "IS_ALPHA": True}], _attrs(morph="NumForm=Word|NumType=Card"))
    )
    rules.append(
        _rule([{"TAG": "FW", "LOWER": {"IN": ["etc", "etc."]}}], _attrs("NOUN", lemma="etc."))
    )
    rules.append(_rule([{"TAG": "POS"}], _attrs(lemma="'s")))
    # symbols a PTB tag lumps with punctuation or nouns; emoticons
    rules.append(
        _rule(
            [{"TAG": {"IN": [",", ":", "NN"]}, "ORTH": {"IN": ["/", "%", "#", "&"]}}],
            {"POS": "SYM"},
        )
    )
    rules.append(_rule([{"TAG": "NFP", "ORTH": {"REGEX": EMOTICON}}], {"POS": "SYM"}))
    for (tag, word), lemma in LEMMAS.items():
        rules.append(_rule([{"TAG": tag, "LOWER": word}], {"LEMMA": lemma}))
    # determiners; a demonstrative not followed by its noun is a pronoun
    for word, (lemma, morph) in DETERMINERS.items():
        rules.append(_rule([{"TAG": "DT", "LOWER": word}], _attrs(morph=morph, lemma=lemma)))
    demonstrative = {"TAG": "DT", "LOWER": {"IN": DEMONSTRATIVES}}
    rules.append(_rule([demonstrative, {"TAG": {"NOT_IN": NOMINAL_TAGS}}], {"POS": "PRON"}))
    wh_determiner = {"TAG": "WDT", "LOWER": {"IN": ["what", "which", "whatever", "whichever"]}}
    rules.append(
        _rule([wh_determiner, {"TAG": {"IN": NOMINAL_TAGS}}], _attrs("DET", "PronType=Int"))
    )
    for word, pron_type in NOUN_PRONOUNS.items():
        morph = f"Number=Sing|PronType={pron_type}"
        rules.append(_rule([{"TAG": "NN", "LOWER": word}], _attrs("PRON", morph)))
    # pronouns
    for word, (lemma, morph) in PRONOUNS.items():
        rules.append(_rule([{"TAG": "PRP", "LOWER": word}], _attrs(morph=morph, lemma=lemma)))
    for word, morph in POSSESSIVES.items():
        rules.append(_rule([{"TAG": "PRP$", "LOWER": word}], _attrs(morph=morph, lemma=word)))
    rules.append(_rule([{"LOWER": "let"}, {"LOWER": {"IN": ["'s", "’s"]}}], {"LEMMA": "we"}, 1))
    # subordinating conjunctions
    rules.append(_rule([{"TAG": "IN", "LOWER": {"IN": SUBORDINATORS}}], {"POS": "SCONJ"}))
    rules.append(_rule([{"TAG": "IN"}, {"TAG": "VBG"}], {"POS": "SCONJ"}))
    subject = {"LOWER": {"IN": SUBJECT_PRONOUNS}, "TAG": {"IN": ["PRP", "EX"]}}
    rules.append(_rule([{"TAG": "IN", "LOWER": {"IN": BOTH}}, subject], {"POS": "SCONJ"}))
    rules.append(_rule([{"LOWER": "because"}, {"LOWER": "of"}], {"POS": "ADP"}))
    # negation
    rules.append(
        _rule([{"TAG": "RB", "LOWER": {"IN": NEGATION}}], _attrs("PART", "Polarity=Neg", "not"))
    )
    # auxiliaries: every "be" (the copula too) and the modals; "have" before a participle,
    # "do" before an infinitive; "be" after existential "there" is a verb
    verb = {"TAG": {"IN": VERB_TAGS}}
    rules.append(_rule([{**verb, "LOWER": {"IN": BE}}], _attrs("AUX", lemma="be")))
    rules.append(
        _rule(
            [{**verb, "LOWER": "am"}],
            _attrs(morph="Mood=Ind|Number=Sing|Person=1|Tense=Pres|VerbForm=Fin"),
        )
    )
    rules.append(_rule([{**verb, "LOWER": {"IN": HAVE}}], {"LEMMA": "have"}))
    rules.append(_rule([{**verb, "LOWER": {"IN": DO}}], {"LEMMA": "do"}))
    between = {"TAG": {"IN": ["RB", "PRP", "EX", "NNP", "PDT"]}, "OP": "{0,3}"}
    rules.append(_rule([{**verb, "LOWER": {"IN": HAVE}}, between, {"TAG": "VBN"}], {"POS": "AUX"}))
    subject_words = {
        "TAG": {
            "IN": ["RB", "PRP", "EX", "NNP", "NNPS", "NN", "NNS", "DT", "PRP$", "JJ", "CD", "POS"]
        },
        "OP": "{0,4}",
    }
    rules.append(
        _rule([{**verb, "LOWER": {"IN": DO}}, subject_words, {"TAG": "VB"}], {"POS": "AUX"})
    )
    finite_do = {"TAG": {"IN": ["VBD", "VBP", "VBZ"]}, "LOWER": {"IN": DO}}
    adverbs = {"TAG": "RB", "OP": "{0,2}"}
    rules.append(_rule([finite_do, adverbs, {"IS_PUNCT": True}], {"POS": "AUX"}))  # ellipsis
    for word, lemma in MODAL_LEMMAS.items():
        rules.append(_rule([{"TAG": "MD", "LOWER": word}], {"LEMMA": lemma}))
    there = {"TAG": "EX"}
    between = {"TAG": {"IN": ["RB", "MD", "VBZ", "VBP", "VBD"]}, "OP": "{0,3}"}
    rules.append(_rule([there, between, {**verb, "LOWER": {"IN": BE}}], {"POS": "VERB"}, -1))
    rules.append(_rule([{**verb, "LOWER": {"IN": BE}}, there], {"POS": "VERB"}))
    return rules


def _lemma_lookups() -> Lookups:
    try:
        return load_lookups("en", list(LEMMA_TABLES))
    except ValueError as error:  # no spacy-lookups-data
        raise SystemExit(
            f"✘ the lemmatizer's tables come from spacy-lookups-data: `pip install "
            f"spacy-lookups-data` to build (not needed to run the pipeline) ({error})"
        ) from error


def _wordnet_license() -> str:
    import spacy_lookups_data  # noqa: PLC0415 (build time only)

    path = Path(spacy_lookups_data.__file__).parent / "data" / "en_license.txt"
    return path.read_text(encoding="utf8")


def add_attributes(nlp: Language, lookups: Lookups | None = None) -> None:
    """Put the attribute_ruler and the lemmatizer right after senna_tagger (replacing any
    already there) and add their source to the meta."""
    if AFTER not in nlp.pipe_names:
        raise SystemExit(f"✘ the pipeline has no {AFTER}: {nlp.pipe_names}")
    for name in (RULER, LEMMATIZER):
        if name in nlp.pipe_names:
            nlp.remove_pipe(name)
    # the training score weights stay as they were (the lemmatizer would claim half of them)
    weights = {**nlp.config["training"]["score_weights"], "lemma_acc": 0.0}
    ruler = nlp.add_pipe(RULER_FACTORY, name=RULER, after=AFTER)
    ruler.add_patterns(attribute_patterns())
    lemmatizer = nlp.add_pipe(
        LEMMATIZER_FACTORY, name=LEMMATIZER, after=RULER, config={"mode": "rule"}
    )
    lemmatizer.initialize(lookups=lookups if lookups is not None else _lemma_lookups())
    nlp._config["training"]["score_weights"] = weights
    sources = [s for s in nlp.meta.get("sources", []) if not s.startswith(SOURCE[:30])]
    nlp.meta["sources"] = [*sources, SOURCE]


def write_license(output: Path) -> None:
    """The WordNet license next to the lemmatizer's tables, as the license asks."""
    (output / LEMMATIZER / LICENSE_NAME).write_text(_wordnet_license(), encoding="utf8")


def add_attributes_to_disk(path: Path, output: Path | None = None) -> Language:
    """Add the components to the pipeline saved in `path` and write it to `output` (default:
    back into `path`, writing only config.cfg, meta.json and the two component folders)."""
    nlp = spacy.load(path)
    add_attributes(nlp)
    if output is not None and output != path:
        nlp.to_disk(output)
        prune_strings(output)
        write_license(output)
        return nlp
    with tempfile.TemporaryDirectory() as tmp:
        saved = Path(tmp) / "pipeline"
        nlp.to_disk(saved)
        write_license(saved)
        for name in (RULER, LEMMATIZER):
            shutil.rmtree(path / name, ignore_errors=True)
            shutil.copytree(saved / name, path / name)
        for name in ("config.cfg", "meta.json"):
            shutil.copyfile(saved / name, path / name)
    return nlp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path)
    parser.add_argument("--output", type=Path, help="write here (default: into PIPELINE)")
    args = parser.parse_args()
    nlp = add_attributes_to_disk(args.pipeline, args.output)
    out = args.output or args.pipeline
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"✔ {', '.join(nlp.pipe_names)} in {out}: {size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
