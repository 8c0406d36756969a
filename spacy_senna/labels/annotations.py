"""Token attributes a cascade reads or copies, and the Doc annotation that sets each."""

TOKEN_ANNOTATIONS = {
    "tag_": "TAG",
    "pos_": "POS",
    "lemma_": "LEMMA",
    "morph": "MORPH",
    "ent_type_": "ENT_TYPE",
}
