"""Tournaments between agents: openings, parallel games, the results store, ratings, SPRT.

- :mod:`~bitflip.arena.openings`: opening files, random and balanced openings.
- :mod:`~bitflip.arena.match`: one game, its task and result.
- :mod:`~bitflip.arena.workers`: worker processes that play games and enforce the time limits.
- :mod:`~bitflip.arena.tournament`: round robins and gauntlets, resuming, the SPRT gate.
- :mod:`~bitflip.arena.store`: the SQLite file of games.
- :mod:`~bitflip.arena.ratings` and :mod:`~bitflip.arena.sprt`: the statistics.
- :mod:`~bitflip.arena.report`: the terminal table and the HTML report.
- :mod:`~bitflip.arena.ray_backend`: the same games on Ray.
"""
