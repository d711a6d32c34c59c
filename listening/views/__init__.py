"""Listening's pages: a collection's listening copies, the headphone trial page."""
