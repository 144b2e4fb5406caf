"""The arena's players: each one small class implementing
``benchmarks.arena.protocol.Player``; ``registry`` names them."""
