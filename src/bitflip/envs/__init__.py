"""Environments for reinforcement-learning users (``pip install 'bitflip[rl]'``).

- :class:`~bitflip.envs.gym_env.OthelloEnv`: Gymnasium, one agent against any registry agent.
- :func:`~bitflip.envs.pz_env.env`: a PettingZoo AEC environment for two agents.
- :class:`~bitflip.envs.vector.VectorOthello`: many boards stepped at once in numba.

Importing ``bitflip`` never imports this package; Gymnasium and PettingZoo load only here.
"""

from __future__ import annotations

__all__ = ["OthelloEnv", "VectorOthello", "env", "raw_env"]


def __getattr__(name: str) -> object:
    if name == "OthelloEnv":
        from bitflip.envs.gym_env import OthelloEnv

        return OthelloEnv
    if name in ("env", "raw_env"):
        from bitflip.envs import pz_env

        return getattr(pz_env, name)
    if name == "VectorOthello":
        from bitflip.envs.vector import VectorOthello

        return VectorOthello
    raise AttributeError(name)
