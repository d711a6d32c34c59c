"""Crowd's reads, one module per area; everything of ``access``, ``approvals``, ``campaigns``, ``clear_cut``, ``integrity``, ``listening``, ``practice`` and ``workers`` is re-exported here."""

from crowd.selectors.access import *  # noqa: F403
from crowd.selectors.approvals import *  # noqa: F403
from crowd.selectors.campaigns import *  # noqa: F403
from crowd.selectors.clear_cut import *  # noqa: F403
from crowd.selectors.integrity import *  # noqa: F403
from crowd.selectors.judged_levels import *  # noqa: F403
from crowd.selectors.listening import *  # noqa: F403
from crowd.selectors.practice import *  # noqa: F403
from crowd.selectors.room import *  # noqa: F403
from crowd.selectors.workers import *  # noqa: F403
