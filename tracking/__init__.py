"""Tracking: observations in table mm to tracks with identities (Kalman filters)."""
