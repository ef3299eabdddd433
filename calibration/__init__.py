"""Calibration: table specifications and the mapping between image pixels and table mm."""

from calibration.tables import TABLES, Family, TableSpec, get_table

__all__ = ["TABLES", "Family", "TableSpec", "get_table"]
