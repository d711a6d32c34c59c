"""Judging: test collections and the pages where people judge them."""
