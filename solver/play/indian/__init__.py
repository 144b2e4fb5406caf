"""The Indian rummy advisor (``indian13``, ``indian21``).

* ``state`` -- the public state of a deal, checked and replayed;
* ``hands`` -- how far a hand is from a declaration, fast (the packing);
* ``policy`` -- a fast player on the packing (the model of the others);
* ``worlds`` -- the hidden cards dealt out, weighted by what the others did;
* ``race`` -- the rest of a deal as a race between distances;
* ``params`` -- the tuned numbers;
* ``advisor`` -- every legal move valued over the worlds;
* ``game`` -- the game model the registry (``solver.play.model``) holds.
"""

from __future__ import annotations

from solver.play.indian.advisor import LEVELS, hands_for
from solver.play.indian.params import INDIAN_PARAMS, IndianParams
from solver.play.indian.policy import FastPolicy

__all__ = ["INDIAN_PARAMS", "LEVELS", "FastPolicy", "IndianParams", "hands_for"]
