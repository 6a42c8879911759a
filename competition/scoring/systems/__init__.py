"""The ranking systems: game points, the internal SB competition, Van den Brink and Keizer."""
