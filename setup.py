"""Entry points: how spaCy finds the components without `--code`.

Every other piece of metadata is in pyproject.toml.
"""

from setuptools import setup

setup(
    entry_points={
        "spacy_factories": [
            "senna_tagger = spacy_senna.pipeline.tagger:make_senna_tagger",
            "senna_chunker = spacy_senna.pipeline.chunker:make_senna_chunker",
            "senna_ner = spacy_senna.pipeline.ner:make_senna_ner",
            "senna_srl = spacy_senna.pipeline.srl:make_senna_srl",
            "senna_words = spacy_senna.pipeline.words:make_senna_words",
            "senna_attribute_ruler = spacy_senna.pipeline.attribute_map:make_senna_attribute_ruler",
            "senna_lemmatizer = spacy_senna.pipeline.lemmas:make_senna_lemmatizer",
            "senna_sentencizer = spacy_senna.pipeline.sentences:make_senna_sentencizer",
            "senna_parser = spacy_senna.pipeline.parser:make_senna_parser",
        ],
        "spacy_architectures": [
            "spacy-senna.WindowTagger.v1 = spacy_senna.models.architectures:build_window_tagger",
            "spacy-senna.SentenceTagger.v1 = spacy_senna.models.architectures:build_sentence_tagger",
            "spacy-senna.PredicateBiLSTM.v1 = spacy_senna.models.architectures:build_predicate_bilstm",
            "spacy-senna.PredicateHeads.v1 = spacy_senna.models.architectures:build_predicate_heads",
            "spacy-senna.LevelHeads.v1 = spacy_senna.models.architectures:build_level_heads",
            "spacy-senna.WordTable.v1 = spacy_senna.models.word_table:build_word_table",
        ],
        "spacy_scorers": [
            "spacy-senna.spans_scorer.v1 = spacy_senna.scoring.scorers:make_spans_scorer",
            "spacy-senna.srl_scorer.v1 = spacy_senna.scoring.scorers:make_srl_scorer",
            "spacy-senna.parse_scorer.v1 = spacy_senna.scoring.parse_scorer:make_parse_scorer",
        ],
        "spacy_readers": [
            "spacy-senna.Corpus.v1 = spacy_senna.corpora.readers:create_corpus_with_inputs",
        ],
        "spacy_misc": [
            "spacy-senna.WordFeature.v1 = spacy_senna.features:word_feature",
            "spacy-senna.CapsFeature.v1 = spacy_senna.features:caps_feature",
            "spacy-senna.SuffixFeature.v1 = spacy_senna.features:suffix_feature",
            "spacy-senna.AttrFeature.v1 = spacy_senna.features:attr_feature",
            "spacy-senna.GazetteerFeature.v1 = spacy_senna.features.gazetteer:gazetteer_feature",
            "spacy-senna.CharFeature.v1 = spacy_senna.features:char_feature",
            "spacy-senna.SpanTagFeature.v1 = spacy_senna.features:span_tag_feature",
            "spacy-senna.SharedWords.v1 = spacy_senna.features:shared_words_feature",
        ],
        "spacy_tokenizers": [
            "spacy-senna.SyntacticWords.v1 = "
            "spacy_senna.pipeline.syntactic_words:create_syntactic_word_tokenizer",
        ],
        "spacy_callbacks": [
            "spacy-senna.release_memory.v1 = spacy_senna.runtime.release_memory:make_release_memory",
            "spacy-senna.keep_freed_memory.v1 = spacy_senna.runtime.allocator:make_keep_freed_memory",
        ],
    },
)
