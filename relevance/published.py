"""What relevance publishes to the evaluation app, its one module for it
(``tests/test_project_structure.py`` refuses any other import of relevance from
evaluation).

- a relevance campaign (:class:`RelevanceCampaign`; its judgments are catalog's
  ``RelevanceJudgment`` rows of the campaign's judgment source);
- the organiser's access rule for a campaign (:func:`relevance_campaign_for_organiser`);
- a low-cost campaign's progress over its pairs (:func:`campaign_pair_progress`);
- the one write evaluation makes into relevance: the estimates' order of a low-cost
  campaign's pairs (:func:`pool_priorities_store`, thesis §8.4), which "Get next pair"
  reads.
"""

from relevance.models import RelevanceCampaign
from relevance.selectors import campaign_pair_progress, relevance_campaign_for_organiser
from relevance.services.lowcost import pool_priorities_store

__all__ = [
    "RelevanceCampaign",
    "campaign_pair_progress",
    "pool_priorities_store",
    "relevance_campaign_for_organiser",
]
