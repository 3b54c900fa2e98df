"""File formats: transcripts, OBF, GGF, WTHOR, eOthello CSV, each in its own module.

Every reader checks its games through the one replay of :mod:`bitflip.core.replay`.
"""

from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

__all__ = ["FormatError", "GameRecord"]
