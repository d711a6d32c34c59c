"""What catalog publishes to the layer above it that reads it whole, the evaluation app:
its one read module (``tests/test_project_structure.py`` refuses any other import of
catalog from evaluation).

- the rows results are computed from: :class:`Collection`, its :class:`RunEntry` rows
  (systems' ranked lists), :class:`RelevanceJudgment` rows and their
  :class:`JudgmentSource` (which count: ``JudgmentSource.counts``), and the ordered
  groups of sources that hold a ground truth of them (:class:`OrderedGroupEntry`), as
  querysets of these models;
- the organiser's access rule (:func:`collection_for_organiser`, :func:`organises`): a
  results page reaches a collection exactly as catalog's pages do;
- a collection's systems as the results pages list them (:func:`collection_systems`,
  :func:`collection_system`), and the scales its judgments were made on
  (:func:`collection_judged_scales`, which a mapping's measure follows);
- the command line's words for a collection (:func:`collection_from_argument`,
  :func:`named_from_argument`).
"""

from catalog.commands import collection_from_argument, named_from_argument
from catalog.models import (
    Collection,
    JudgmentSource,
    OrderedGroupEntry,
    RelevanceJudgment,
    RunEntry,
)
from catalog.selectors import (
    collection_for_organiser,
    collection_judged_scales,
    collection_system,
    collection_systems,
    organises,
)

__all__ = [
    "Collection",
    "JudgmentSource",
    "OrderedGroupEntry",
    "RelevanceJudgment",
    "RunEntry",
    "collection_for_organiser",
    "collection_from_argument",
    "collection_judged_scales",
    "collection_system",
    "collection_systems",
    "named_from_argument",
    "organises",
]
