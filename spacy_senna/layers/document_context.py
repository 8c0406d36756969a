"""Document context (not in SENNA): what the network saw at a word's other occurrences.

A window of five words often cannot tell a team (ORG) from its city (LOC), or a person
from a company; another mention of the same word in the same document often can. For
each token, the window network's output layer also reads the mean of its hidden layer
over the *other* tokens of the Doc with the same lowercase form (zero when there are
none, so only repeated words cost anything). It is a batched scatter-add,
differentiable, and depends on the token's own Doc only, so a Doc's tags do not change
with the batch it is processed in. `sequences.occurrence_groups` finds the repeated words.
"""

import torch
from torch import Tensor


def other_occurrences_mean(hidden: Tensor, groups: Tensor) -> Tensor:
    """Mean of `hidden` (M, H) over each row's group (M,), leaving the row itself out.

    Rows alone in their group get zeros.
    """
    n_groups = int(groups.max()) + 1 if len(groups) else 0
    sums = hidden.new_zeros(n_groups, hidden.shape[1]).index_add_(0, groups, hidden)
    counts = torch.bincount(groups, minlength=n_groups).to(hidden.dtype)
    others = (counts[groups] - 1).clamp(min=1)[:, None]
    return (sums[groups] - hidden) / others
