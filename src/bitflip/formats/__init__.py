"""File formats: transcripts, OBF, GGF and WTHOR, each read and written by its own module."""

from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

__all__ = ["FormatError", "GameRecord"]
