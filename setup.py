from pathlib import Path

from setuptools import find_packages, setup

about = {}
exec((Path(__file__).parent / "spacy_senna" / "about.py").read_text(), about)

setup(
    name="spacy-senna",
    version=about["__version__"],
    description="SENNA (Collobert et al. 2011) taggers as trainable spaCy v3 components",
    long_description=(Path(__file__).parent / "README.md").read_text(encoding="utf8"),
    long_description_content_type="text/markdown",
    license="MIT",
    python_requires=">=3.9",
    packages=find_packages(include=["spacy_senna", "spacy_senna.*"]),
    install_requires=["spacy>=3.8,<3.9", "torch>=2.1,<2.14", "numpy"],
    extras_require={
        "test": ["pytest>=7", "ruff"],
        "bench": ["pytorch-crf==0.7.2"],
        "ray": ["ray>=2.9"],
    },
    entry_points={
        "spacy_factories": [
            "senna_tagger = spacy_senna.pipeline.tagger:make_senna_tagger",
            "senna_chunker = spacy_senna.pipeline.span_labeler:make_senna_chunker",
            "senna_ner = spacy_senna.pipeline.span_labeler:make_senna_ner",
            "senna_srl = spacy_senna.pipeline.srl:make_senna_srl",
        ],
        "spacy_architectures": [
            "spacy-senna.WindowTagger.v1 = spacy_senna.models:build_window_tagger",
            "spacy-senna.SentenceTagger.v1 = spacy_senna.models:build_sentence_tagger",
        ],
        "spacy_scorers": [
            "spacy-senna.spans_scorer.v1 = spacy_senna.scoring:make_spans_scorer",
            "spacy-senna.srl_scorer.v1 = spacy_senna.srl_scoring:make_srl_scorer",
        ],
        "spacy_readers": [
            "spacy-senna.Corpus.v1 = spacy_senna.readers:create_corpus_with_inputs",
        ],
        "spacy_misc": [
            "spacy-senna.WordFeature.v1 = spacy_senna.features:word_feature",
            "spacy-senna.CapsFeature.v1 = spacy_senna.features:caps_feature",
            "spacy-senna.SuffixFeature.v1 = spacy_senna.features:suffix_feature",
            "spacy-senna.AttrFeature.v1 = spacy_senna.features:attr_feature",
            "spacy-senna.GazetteerFeature.v1 = spacy_senna.gazetteer:gazetteer_feature",
        ],
    },
)
