"""Catalog's reads: the organiser's access rule (``access``), collections, judgment sources, ordered groups, a query's ranked lists."""

from catalog.selectors.access import *  # noqa: F403
from catalog.selectors.collections import *  # noqa: F403
from catalog.selectors.ordered_groups import *  # noqa: F403
from catalog.selectors.sources import *  # noqa: F403
