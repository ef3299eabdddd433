"""Adjudication: events from tracks, shots from events, and the referee's calls."""
