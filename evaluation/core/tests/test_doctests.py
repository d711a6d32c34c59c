"""The examples in the docstrings of the core modules are tests too."""

import doctest
import importlib
import pkgutil

import pytest

import evaluation.core as core

MODULES = sorted(
    m.name
    for m in pkgutil.walk_packages(core.__path__, "evaluation.core.")
    if ".tests" not in m.name and ".cli" not in m.name
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
