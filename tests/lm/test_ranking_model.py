"""The ranking LM network and its loss (paper eq. 17)."""

import pytest
import torch

from spacy_senna.lm.corpus import CAPS_LEXICON
from spacy_senna.lm.ranking_model import RankingLM, ranking_loss


def test_score_candidates_equals_full_windows():
    torch.manual_seed(0)
    model = RankingLM(50, len(CAPS_LEXICON), window=5, hidden=7)
    words = torch.randint(0, 50, (6, 5))
    caps = torch.randint(0, len(CAPS_LEXICON), (6, 5))
    candidates = torch.randint(2, 50, (6, 3))
    fast = model.score_candidates(words, caps, candidates)
    for j in range(3):
        corrupted = words.clone()
        corrupted[:, 2] = candidates[:, j]
        assert torch.allclose(fast[:, j], model.score(corrupted, caps), atol=1e-5)
    scores = torch.tensor([[2.0, 0.5, 1.5, 3.0]])
    loss, pairs = ranking_loss(scores, torch.tensor([[7, 8, 7, 9]]))
    # pairs (2, 0.5) -> 0, (2, 3.0) -> 2; the negative equal to the true word is masked
    assert float(loss) == pytest.approx(2.0) and int(pairs) == 2
