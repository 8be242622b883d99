"""tf-idf vectors reduced by latent semantic analysis (a truncated SVD), without scikit-learn.

Fitted on both sides together so transcript and report land in one latent space; the SVD starts
from a fixed vector, so a given text always yields the same components.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import svds


def tfidf(counts: sp.csr_matrix, idf: np.ndarray) -> sp.csr_matrix:
    """l2-normalised tf * idf rows (scikit-learn's TfidfVectorizer defaults)."""
    weighted = sp.csr_matrix(counts.multiply(idf[None, :]))
    norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1))).ravel()
    norms[norms == 0] = 1.0
    return sp.csr_matrix(sp.diags(1.0 / norms) @ weighted)


def lsa_vectors(weighted: sp.csr_matrix, components: int) -> np.ndarray:
    """Rows projected on the top singular directions (U * sigma), like TruncatedSVD."""
    rank_limit = min(weighted.shape) - 1
    if rank_limit < 1:
        return weighted.toarray()
    k = min(components, rank_limit)
    start = np.ones(min(weighted.shape), dtype=np.float64) / np.sqrt(min(weighted.shape))
    left, singular, _ = svds(weighted.astype(np.float64), k=k, v0=start, random_state=0)
    order = np.argsort(singular)[::-1]
    signs = np.sign(left[np.abs(left).argmax(axis=0), np.arange(k)])
    signs[signs == 0] = 1.0
    return (left * singular * signs)[:, order]
