"""The default model of the window components: SENNA's window network over word + caps."""

from thinc.api import Config

# SENNA's two base features (Table 5), the [model.features] of every default model
WORD_CAPS_FEATURES = """
[model.features]

[model.features.word]
@misc = "spacy-senna.WordFeature.v1"
width = 50
max_size = 100000
min_freq = 2

[model.features.caps]
@misc = "spacy-senna.CapsFeature.v1"
width = 5
"""


def default_model_config(extra_features: str) -> Config:
    """A component's default model: SENNA's window network (Table 5) over word + caps
    (+ `extra_features`, config sections under [model.features])."""
    return Config().from_str(
        f"""
[model]
@architectures = "spacy-senna.WindowTagger.v1"
window_size = 5
hidden_width = 300
criterion = "sll"
constrain_training = false
{WORD_CAPS_FEATURES}
{extra_features}
"""
    )["model"]
