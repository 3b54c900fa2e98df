"""Search: limits, the alpha-beta engine kernels, the endgame solver, levels, time management."""
