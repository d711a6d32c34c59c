"""Crowd's pages: the worker's task pages and headphone screen, the organiser's campaign pages and the example generator."""
