"""The feature matrix of a library: one TF-IDF row per paper, built once per change.

Words are hashed (scikit-learn's HashingVectorizer) instead of counted into a learnt
vocabulary, so a column never depends on which papers exist: adding papers tokenises
only the new ones, and their rows join the old ones as they are. Only the document
frequencies change, and re-weighting every row with new IDF values is cheap sparse
arithmetic next to tokenising (see bench/bench_ranking.py for the figures).

A FeatureMatrix never changes after it is made; `with_papers` and `without` return a
new one: a model being trained in a background thread keeps reading the matrix it was
given while the library moves on. `save` and `load` keep a matrix beside a library, so
reopening it does not tokenise every paper again.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import HashingVectorizer

from paperdesk.ranking.reading import Readable, hidden_words_pattern, hide, reader_text

#: Papers tokenised, and rows weighted, at a time: bounds the peak memory of a build.
SLICE = 2_000
# Bump when the tokenising or the weighting changes: older saved matrices are rebuilt.
_FILE_FORMAT = "paperdesk-features-1"


@dataclass(frozen=True)
class FeatureConfig:
    """How text becomes columns; chosen by simulation (bench/bench_ranking.py --learners)."""

    ngram_max: int = 2
    # 2**21 columns: collisions among the ~600,000 word pairs of the 13,417-paper corpus
    # stay rare, and a model's weight vector is still only 8 MB.
    n_features: int = 2**21
    # A term in fewer papers than this says nothing about any other paper: dropped.
    min_df: int = 2
    # A term in more than this share of papers says nothing either ("we", "the").
    max_df: float = 0.95
    # The title said again: a title is the author's own summary of the paper.
    title_weight: int = 1

    def vectorizer(self, analyzer: str | Callable[[str], list[str]] = "word") -> HashingVectorizer:
        return HashingVectorizer(
            analyzer=analyzer,
            ngram_range=(1, self.ngram_max),
            n_features=self.n_features,
            alternate_sign=False,
            norm=None,
            dtype=np.float32,
        )


class FeatureMatrix:
    """TF-IDF rows (sublinear TF, smoothed IDF, unit length) for papers by id."""

    def __init__(
        self,
        ids: np.ndarray,
        tf: sp.csr_matrix,
        config: FeatureConfig,
        hidden: Sequence[str] = (),
    ) -> None:
        self.config = config
        self.hidden_words = tuple(hidden)
        self._hidden = hidden_words_pattern(self.hidden_words)
        self._vectorizer = config.vectorizer()
        self.ids = ids
        self.row_of = {int(paper_id): row for row, paper_id in enumerate(ids.tolist())}
        # Sublinear term frequencies (1 + log count), unweighted: kept so papers can join.
        self._tf = tf
        self.idf = _idf(tf, config)
        self.matrix = _weighted(tf, self.idf)

    @classmethod
    def build(
        cls,
        papers: Iterable[tuple[int, Readable]],
        hidden: Sequence[str] = (),
        config: FeatureConfig | None = None,
    ) -> FeatureMatrix:
        """Rows for `(id, paper)` pairs; `hidden` words never reach any column."""
        config = config or FeatureConfig()
        ids, tf = _tokenise(papers, config, hidden_words_pattern(hidden))
        return cls(ids, tf, config, hidden)

    @classmethod
    def from_slices(
        cls, slices: Sequence[tuple[np.ndarray, sp.csr_matrix]], config: FeatureConfig
    ) -> FeatureMatrix:
        """A matrix from rows tokenised a slice at a time (`tokenise`): a worker that
        receives papers in slices keeps term frequencies, never the texts."""
        if not slices:
            return cls(np.zeros(0, dtype=np.int64), _empty(config), config)
        ids = np.concatenate([ids for ids, _ in slices])
        tf = sp.vstack([tf for _, tf in slices], format="csr")
        return cls(ids, tf, config)

    def with_papers(self, papers: Iterable[tuple[int, Readable]]) -> FeatureMatrix:
        """A matrix with these papers added, or their rows replaced when already present."""
        return self.with_rows(*_tokenise(papers, self.config, self._hidden))

    def with_rows(self, new_ids: np.ndarray, new_tf: sp.csr_matrix) -> FeatureMatrix:
        """`with_papers` for rows already tokenised (`tokenise`)."""
        kept = ~np.isin(self.ids, new_ids)
        ids = np.concatenate([self.ids[kept], new_ids])
        tf = sp.vstack([self._tf[kept], new_tf], format="csr")
        return FeatureMatrix(ids, tf, self.config, self.hidden_words)

    def without(self, paper_ids: Iterable[int]) -> FeatureMatrix:
        """A matrix without these papers (unknown ids are ignored)."""
        kept = ~np.isin(self.ids, np.fromiter(paper_ids, dtype=np.int64))
        return FeatureMatrix(self.ids[kept], self._tf[kept], self.config, self.hidden_words)

    def save(self, path: Path) -> None:
        """Write the matrix to `path` (.npz), so a library reopens without re-tokenising."""
        settings = json.dumps({"config": asdict(self.config), "hidden": self.hidden_words})
        with path.open("wb") as out:
            np.savez(
                out,
                format=np.array(_FILE_FORMAT),
                settings=np.array(settings),
                ids=self.ids,
                data=self._tf.data,
                indices=self._tf.indices,
                indptr=self._tf.indptr,
            )

    @classmethod
    def load(cls, path: Path) -> FeatureMatrix:
        """A matrix saved by `save`; ValueError when the file is not one (rebuild then)."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                if str(saved["format"]) != _FILE_FORMAT:
                    raise ValueError("not a feature matrix of this version")
                settings = json.loads(str(saved["settings"]))
                config = FeatureConfig(**settings["config"])
                ids = saved["ids"]
                tf = sp.csr_matrix(
                    (saved["data"], saved["indices"], saved["indptr"]),
                    shape=(len(ids), config.n_features),
                )
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as error:
            raise ValueError(f"{path}: cannot read the feature matrix ({error})") from None
        return cls(ids, tf, config, settings["hidden"])

    def __len__(self) -> int:
        return len(self.ids)

    def rows(self, paper_ids: Iterable[int]) -> np.ndarray:
        """Row numbers of these papers; KeyError naming an id that has no row."""
        return np.fromiter((self.row_of[int(i)] for i in paper_ids), dtype=np.int64)

    def vectorize(self, text: str) -> sp.csr_matrix:
        """One row for a free text (a query), weighted as the papers' rows are."""
        return _weighted(_term_frequencies(self._vectorizer, [hide(text, self._hidden)]), self.idf)

    def terms(self, text: str) -> dict[str, int]:
        """The terms of `text` that have a column, with that column (for explanations)."""
        terms = list(dict.fromkeys(self._vectorizer.build_analyzer()(hide(text, self._hidden))))
        if not terms:
            return {}
        # One "document" per term, analysed as itself: row i holds term i's column.
        columns = self.config.vectorizer(analyzer=_as_is).transform(terms).indices
        return {t: int(c) for t, c in zip(terms, columns, strict=True) if self.idf[c] > 0}


def _as_is(term: str) -> list[str]:
    return [term]


def tokenise(
    papers: Iterable[tuple[int, Readable]], config: FeatureConfig | None = None
) -> tuple[np.ndarray, sp.csr_matrix]:
    """Ids and sublinear term frequencies of these papers (no hidden words), for
    `FeatureMatrix.from_slices` and `with_rows`."""
    return _tokenise(papers, config or FeatureConfig(), None)


def _empty(config: FeatureConfig) -> sp.csr_matrix:
    return sp.csr_matrix((0, config.n_features), dtype=np.float32)


def _tokenise(
    papers: Iterable[tuple[int, Readable]], config: FeatureConfig, hidden: re.Pattern[str] | None
) -> tuple[np.ndarray, sp.csr_matrix]:
    """Tokenised SLICE papers at a time: the texts of one slice at most are held, and
    the hashing's temporaries stay small (they were most of the peak at 100,000)."""
    vectorizer = config.vectorizer()
    ids: list[int] = []
    parts: list[sp.csr_matrix] = []
    texts: list[str] = []
    for paper_id, paper in papers:
        ids.append(paper_id)
        texts.append(reader_text(paper, hidden, config.title_weight))
        if len(texts) == SLICE:
            parts.append(_term_frequencies(vectorizer, texts))
            texts = []
    if texts or not parts:
        parts.append(_term_frequencies(vectorizer, texts))
    tf = parts[0] if len(parts) == 1 else sp.vstack(parts, format="csr")
    return np.array(ids, dtype=np.int64), tf


def _term_frequencies(vectorizer: HashingVectorizer, texts: list[str]) -> sp.csr_matrix:
    if not texts:  # scikit-learn cannot hash an empty list
        return sp.csr_matrix((0, vectorizer.n_features), dtype=np.float32)
    counts = sp.csr_matrix(vectorizer.transform(texts), dtype=np.float32)
    np.log(counts.data, out=counts.data)
    counts.data += 1.0
    return counts


def _idf(tf: sp.csr_matrix, config: FeatureConfig) -> np.ndarray:
    """Smoothed IDF, ln((1 + n) / (1 + df)) + 1, and 0 for columns that say nothing."""
    n = tf.shape[0]
    df = np.bincount(tf.indices, minlength=config.n_features)
    idf = (np.log((1.0 + n) / (1.0 + df)) + 1.0).astype(np.float32)
    useless = (df < config.min_df) | (df > config.max_df * n)
    idf[useless] = 0.0
    return idf


def _weighted(tf: sp.csr_matrix, idf: np.ndarray) -> sp.csr_matrix:
    """TF times IDF, each row scaled to unit length: one copy of `tf`, weighted and
    normalised in place SLICE rows at a time (no whole-matrix temporaries)."""
    weighted = tf.copy()
    data, indices, indptr = weighted.data, weighted.indices, weighted.indptr
    for start in range(0, weighted.shape[0], SLICE):
        stop = min(start + SLICE, weighted.shape[0])
        lo, hi = int(indptr[start]), int(indptr[stop])
        if lo == hi:
            continue
        part = data[lo:hi]
        part *= idf[indices[lo:hi]]
        counts = np.diff(indptr[start : stop + 1])
        squares = np.add.reduceat(part * part, (indptr[start:stop] - lo)[counts > 0])
        lengths = np.ones(stop - start, dtype=np.float32)
        lengths[counts > 0] = np.sqrt(squares)
        lengths[lengths == 0] = 1.0
        part /= np.repeat(lengths, counts)
    weighted.eliminate_zeros()
    return weighted
