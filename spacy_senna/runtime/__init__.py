"""The process around the networks: torch threads and locks, freed memory kept or handed back."""
