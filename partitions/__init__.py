"""Venue catalogue and the Dagster partitions it drives."""
from partitions.catalogue import Catalogue, CatalogueError, VenueYear, catalogue, load_catalogue

__all__ = ["Catalogue", "CatalogueError", "VenueYear", "catalogue", "load_catalogue"]
