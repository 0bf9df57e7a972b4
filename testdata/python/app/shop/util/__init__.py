"""Helpers with no dependencies on the rest of the shop."""
