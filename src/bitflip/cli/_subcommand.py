"""How a subcommand module adds its parser, and the help of the commands that use it.

A module's ``register(sub)`` calls :func:`add_subcommand` with the command's name; the one-line
summary (``bitflip --help``) and the details (``bitflip CMD --help``) are listed in
:data:`TEXTS`, so every command's help reads alike and sits in one table.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, TypeAlias

from bitflip.cli._numbers import THREADS, positive_float, positive_int
from bitflip.core.parallel import usable_cores

__all__ = [
    "OneLineParser",
    "Subparsers",
    "add_actions",
    "add_subcommand",
    "add_threads_option",
    "positive_float",
    "positive_int",
]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers()`` returns: the ``sub`` every ``register(sub)`` receives."""


class OneLineParser(argparse.ArgumentParser):
    """A parser whose errors are one line (``bitflip CMD: error: ...``), as every other error
    of the command is: the usage is one ``--help`` away, not printed above the message."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


TEXTS: dict[str, tuple[str, str | None]] = {
    "analyze": (
        "score each move of a game against the best move",
        "Score each move of a game (a transcript, or a file holding one) against "
        "the engine's best move; moves that lose at least --mistake discs are marked '?', "
        "at least --blunder discs '??'.",
    ),
    "arena": (
        "play a tournament between agents and rate them",
        "A round robin between the SPECs (or a gauntlet of each against --vs): every "
        "opening is played twice with the colours swapped, in parallel worker processes. Prints "
        "W/D/L, score, disc margin and Elo with 95% intervals; with --db the games are stored "
        "and a killed run resumes when run again.",
    ),
    "bench": (
        "search fixed positions to a fixed depth and print the node count",
        "Search the bench positions to a fixed depth with a fresh table each and "
        "print 'Nodes searched: N', the time and the speed.",
    ),
    "hint": (
        "score the best moves of a position",
        "Score the best moves of a position given as an OBF board string "
        "('---...XO... X') or a transcript from the start ('f5d6c3').",
    ),
    "nboard": (
        "run the engine under the NBoard protocol (stdin/stdout)",
        "Run the engine as an NBoard engine: point the NBoard GUI (or Edax-style "
        "tools) at 'bitflip nboard'. Commands: nboard, set depth, set game, set contempt, "
        "move, hint, go, ping, learn, quit. 'set depth N' plays as engine level N (as Edax "
        "reads it: level 13 searches 13 plies, proves win/loss/draw from 22 empties (at 23 a "
        "selective proof) and solves exactly from 20). Problems with input go to stderr.",
    ),
    "perft": (
        "count the leaves of the game tree to a depth",
        "Perft with convention A of perft.md: a forced pass is a ply and a game "
        "that ends early is one leaf.",
    ),
    "play": (
        "play, get hints and analyse games in the browser (or --terminal)",
        "Start the web app on localhost and open it in the browser. Games are kept "
        "in a SQLite file and survive a restart; the JSON API is documented on /docs.",
    ),
    "solve": (
        "solve the positions of an OBF file exactly (or win/loss/draw)",
        "Solve each position of an OBF file (one 'board side; MOVE:score; ...' a "
        "line) and print the best move, score (with --wld: win, loss or draw), nodes, time and "
        "speed, and whether the result matches the file's annotation.",
    ),
    "book": (
        "build or look into an opening book",
        "An opening book: WTHOR positions with game counts and negamaxed search scores, "
        "looked up under the 8 symmetries (see bitflip.search.book).",
    ),
    "book build": (
        "build an opening book from WTHOR games",
        "Every position reached by at least --min-games games within the first --max-ply moves"
        " is a book node; its moves leaving the book are scored by one --depth search, and the"
        " scores are negamaxed up the book's tree (as Edax builds its book).",
    ),
    "book show": (
        "show the book moves of a position",
        "The position's book score and games, and each move leading into the book with its "
        "score (discs, side to move's view) and games.",
    ),
    "convert": (
        "convert game files between formats (.txt, .ggf, .wtb; .obf)",
        "Convert by file extension: .txt transcripts (one game per line), .ggf (GGS records), "
        ".wtb (WTHOR; writing it also writes the .JOU/.TRN names beside it), .obf positions (to"
        " .obf only). Every game is replayed and checked.",
    ),
    "train": (
        "train a network or an evaluation from a config file",
        "Train from a commented TOML config (see configs/).",
    ),
    "train policy": (
        "a policy network from training shards (configs/policy*.toml)",
        "Train a policy network: checkpoints each epoch (--resume continues), early "
        "stopping, metrics.csv and loss.png in the run folder, a content-hashed model file.",
    ),
    "train value": (
        "a value network from training shards (configs/value*.toml)",
        "Train a value network: checkpoints each epoch (--resume continues), early "
        "stopping, metrics.csv and loss.png in the run folder, a content-hashed model file.",
    ),
    "train alphazero": (
        "AlphaZero self-play learning (configs/alphazero-*.toml)",
        "Runs self-play -> train -> gate iterations in the run directory; killed at any point, "
        "the same command resumes. --step runs one step of one iteration; --evaluate plays a "
        "net against baseline agents (the report's Table 1).",
    ),
    "train labels": (
        "label positions with the engine's own searches (for train patterns)",
        "Draws WTHOR positions (some moved random moves off the game line), scores each with"
        " the engine's search at a level (exact near the end) in worker processes, and writes "
        "labels-*.npz chunks; killed, the same command resumes. Fit on them with "
        "`bitflip train patterns` and labels = FOLDER (configs/patterns.toml holds both "
        "steps' recipes).",
    ),
    "train patterns": (
        "fit the pattern-table evaluation on WTHOR games (or search labels)",
        "Regression of the pattern tables (one set per game phase) on positions of WTHOR games,"
        " or on the positions and scores of `bitflip train labels` (labels = FOLDER), split by "
        "game; prints the held-out mean absolute error in discs and writes "
        "patterns-<hash>.npz with a card (.md) into the run folder. A run that is stopped "
        "resumes from its last epoch when started again with the same config.",
    ),
    "train qlearning": (
        "tabular Q-learning on hashed states (configs/qlearning.toml)",
        "Trains a Q-table by self-play or against random, saves it, then prints the report's "
        "table: random vs random, trained vs random, trained vs trained.",
    ),
    "train td": (
        "TD(lambda) on the FIREBRAND features with time weights (configs/td.toml)",
        "Staged TD(lambda) self-play (10, 20, 40, 60 empties ...). Writes weights.json (use "
        "with td:weights=FILE or --eval), trajectory.csv and trajectory.png.",
    ),
    "data": (
        "download data sets; build training data from game databases",
        "Training data: versioned npz shards of positions with their targets.",
    ),
    "data build": (
        "convert WTHOR files (and extra game files) to training shards",
        "One shard per input file: every position of every game with the move played, the final"
        " disc difference and result from the mover's view and WTHOR's theoretical score. "
        "Repeated games are dropped; positions are deduplicated at training time, after the "
        "split by game.",
    ),
    "data get": (
        "download WTHOR, the FFO endgame tests or the XOT openings",
        "Download a data set from its official source into the user data folder (or --dest), "
        "where every command and the tests find it. Files are checked (SHA-256, or for WTHOR "
        "the size its header announces); a broken download resumes when run again.",
    ),
    "db": (
        "game databases: summaries",
        None,
    ),
    "db stats": (
        "games, years, players, results, unfinished games, margins",
        "Summarise .wtb (with the .JOU/.TRN names found beside them) and .ggf files; a folder "
        "counts every .wtb and .ggf file in it.",
    ),
    "nn": (
        "test or describe a network file",
        None,
    ),
    "nn test": (
        "a network's accuracy (policy) or MSE and disc error (value) on WTHOR games",
        "Policy nets: top-1/top-3 accuracy over every position of the games (top1_choice: "
        "positions with two or more legal moves). Value nets: MSE of the result on the +-1 "
        "scale and the disc error, finished games only.",
    ),
    "nn info": (
        "print a network file's config, lineage and metrics",
        None,
    ),
}
"""(summary, details) of each command, by its words after ``bitflip``."""


def add_subcommand(sub: Subparsers, command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` (e.g. ``"data build"``; its last word is the name typed), with
    its texts from :data:`TEXTS`."""
    summary, details = TEXTS[command]
    return sub.add_parser(command.split()[-1], help=summary, description=details)


def add_threads_option(p: argparse.ArgumentParser) -> None:
    """``--threads N`` of the searching commands (solve, hint, nboard, play): every core by
    default, since a level's search gives the same depth sooner with more threads.

    Two threads on a quiet 2-core machine: level 14 0.74x and level 16 0.71x the wall time of
    one on 60 WTHOR midgame positions, FFO #40-#49 0.57x (0.77x beside a one-thread solve;
    RESULTS-search.md). One thread keeps node counts reproducible and leaves the other core to
    an opponent engine on the same machine (matches between engines compare one thread a side).
    """
    default = min(usable_cores(), THREADS.high)
    why = (
        f"default: every core, {default} here; 1 for reproducible node counts, or for a match "
        "against an engine on the same machine"
    )
    p.add_argument(
        "--threads",
        type=THREADS,
        default=default,
        help=f"search threads sharing the tables ({why})",
    )


def add_actions(sub: Subparsers, command: str) -> Subparsers:
    """A command that takes an ACTION first (``bitflip data build``); returns its subparsers."""
    p = add_subcommand(sub, command)
    actions = p.add_subparsers(dest=f"{command}_command", metavar="ACTION")
    actions.required = True
    return actions
