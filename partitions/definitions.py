"""Dagster partitions built from the catalogue (one key per venue-year)."""
import dagster as dg

from partitions.catalogue import catalogue

venue_year_partitions = dg.StaticPartitionsDefinition(catalogue().keys)


def split_partition_mapping(split: str) -> dg.SpecificPartitionsPartitionMapping:
    """An unpartitioned conference split depends on exactly its own venue-year partitions."""
    return dg.SpecificPartitionsPartitionMapping(catalogue().keys_for_split(split))
