"""What the arena's games share: rotated deals, statistics, the entrant
registry, report helpers, the joker games' card names and the command line
(see ``benchmarks.arena``)."""
