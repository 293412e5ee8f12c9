"""Known venues: the full name a bibliography prints and the BibTeX entry type.

Names leave out the edition ("Proceedings of the 42nd ..."): ordinals drift (a
cancelled or merged year shifts them) and a wrong one is worse than none, while the
plain name is what Google Scholar and DBLP give too. Conferences are
`@inproceedings` with the name as `booktitle`, journals `@article` with `journal`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Venue:
    short_name: str
    full_name: str
    entry_type: str


def _conference(short_name: str, full_name: str) -> Venue:
    return Venue(short_name, full_name, "inproceedings")


def _journal(short_name: str, full_name: str) -> Venue:
    return Venue(short_name, full_name, "article")


_KNOWN = (
    _conference("ICML", "Proceedings of the International Conference on Machine Learning"),
    _conference("NeurIPS", "Advances in Neural Information Processing Systems"),
    _conference("ICLR", "International Conference on Learning Representations"),
    _conference(
        "AISTATS",
        "Proceedings of the International Conference on Artificial Intelligence and Statistics",
    ),
    _conference("COLT", "Proceedings of the Conference on Learning Theory"),
    _conference("UAI", "Proceedings of the Conference on Uncertainty in Artificial Intelligence"),
    _conference("CoRL", "Proceedings of the Conference on Robot Learning"),
    _conference("COLM", "Conference on Language Modeling"),
    _conference("ACML", "Proceedings of the Asian Conference on Machine Learning"),
    _conference(
        "ALT", "Proceedings of the International Conference on Algorithmic Learning Theory"
    ),
    _conference(
        "AutoML", "Proceedings of the International Conference on Automated Machine Learning"
    ),
    _conference("AAAI", "Proceedings of the AAAI Conference on Artificial Intelligence"),
    _conference(
        "IJCAI", "Proceedings of the International Joint Conference on Artificial Intelligence"
    ),
    _conference(
        "CVPR", "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition"
    ),
    _conference("ICCV", "Proceedings of the IEEE/CVF International Conference on Computer Vision"),
    _conference("ECCV", "Proceedings of the European Conference on Computer Vision"),
    _conference(
        "ACL", "Proceedings of the Annual Meeting of the Association for Computational Linguistics"
    ),
    _conference(
        "EMNLP", "Proceedings of the Conference on Empirical Methods in Natural Language Processing"
    ),
    _conference(
        "NAACL",
        "Proceedings of the Conference of the North American Chapter of the Association for "
        "Computational Linguistics",
    ),
    _conference(
        "KDD", "Proceedings of the ACM SIGKDD Conference on Knowledge Discovery and Data Mining"
    ),
    _journal("JMLR", "Journal of Machine Learning Research"),
    _journal("TMLR", "Transactions on Machine Learning Research"),
    _journal("TPAMI", "IEEE Transactions on Pattern Analysis and Machine Intelligence"),
)
_ALIASES = {"nips": "neurips", "automlconf": "automl", "sigkdd": "kdd", "pami": "tpami"}
_BY_KEY = {venue.short_name.casefold(): venue for venue in _KNOWN}

# "NeurIPS 2023", "ICML-2025", "ICLR'24": the year is not part of the venue's name.
_YEAR = re.compile(r"(?<!\d)'?(?:19|20)?\d\d(?!\d)")
_NOT_ALPHANUMERIC = re.compile(r"[\W_]+")


def find_venue(name: str | None) -> Venue | None:
    """The known venue `name` abbreviates (any case, with or without a year), else None.

    Workshops and tracks ("ICML Workshop on ...") are not the main proceedings and stay
    unknown, so they keep the name they were given.
    """
    if not name:
        return None
    key = _NOT_ALPHANUMERIC.sub("", _YEAR.sub(" ", name).casefold())
    return _BY_KEY.get(_ALIASES.get(key, key))
