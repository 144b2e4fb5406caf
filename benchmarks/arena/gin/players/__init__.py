"""The arena's players: each one small class implementing
``benchmarks.arena.gin.protocol.Player``; ``registry`` names them."""
