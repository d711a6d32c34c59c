"""Reads of judging's data, for views, APIs and the evaluation layer, one module per area.

``access`` holds the one rule of what an organiser may see; the other modules read a
collection or campaign that already passed it.

Everything is re-exported here, so ``from judging import selectors`` then
``selectors.collection_queries(...)`` finds any of them.
"""

from judging.selectors.access import *  # noqa: F403
from judging.selectors.collections import *  # noqa: F403
from judging.selectors.crowd import *  # noqa: F403
from judging.selectors.crowd_integrity import *  # noqa: F403
from judging.selectors.crowd_room import *  # noqa: F403
from judging.selectors.judged_levels import *  # noqa: F403
from judging.selectors.listening import *  # noqa: F403
from judging.selectors.practice import *  # noqa: F403
from judging.selectors.relevance import *  # noqa: F403
from judging.selectors.sources import *  # noqa: F403
from judging.selectors.workers import *  # noqa: F403
