"""The examples in the statistics docstrings run and give what they say."""

import doctest
import importlib

import pytest

MODULES = [
    "evaluation.core.stats",
    "evaluation.core.significance",
    "evaluation.core.multiple",
    "evaluation.core.intervals",
    "evaluation.core.distributions",
    "evaluation.core.satisfaction",
    "evaluation.core.gtheory",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_of_each_statistics_module_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
