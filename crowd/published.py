"""What crowd publishes to the evaluation app, its one read module
(``tests/test_project_structure.py`` refuses any other import of crowd from evaluation).

- a preference campaign (:class:`PreferenceCampaign`) and its answers as the mapping
  reads them: :class:`Answer` rows (``accepted_at`` set: accepted), their
  :class:`Example` and its :class:`ExampleItem` rows (the two lists shown);
- which answers had every clip heard (:func:`answers_fully_heard`, the rule of the
  workers page and the answers export);
- the organiser's access rule for a campaign (:func:`campaign_for_organiser`);
- the workers' agreement with the others (issue 29): the answers it is fitted from
  (:func:`campaign_agreement_answers`) and its one write, the rates stored back on the
  workers for the workers page (:func:`workers_agreement_store`).
"""

from crowd.models import Answer, Example, ExampleItem, PreferenceCampaign
from crowd.selectors.access import campaign_for_organiser
from crowd.selectors.agreement import campaign_agreement_answers
from crowd.selectors.listening import answers_fully_heard
from crowd.services.agreement import workers_agreement_store

__all__ = [
    "Answer",
    "Example",
    "ExampleItem",
    "PreferenceCampaign",
    "answers_fully_heard",
    "campaign_agreement_answers",
    "campaign_for_organiser",
    "workers_agreement_store",
]
