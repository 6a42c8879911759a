"""The ranking systems: game points, the internal SB competition and Van den Brink."""
