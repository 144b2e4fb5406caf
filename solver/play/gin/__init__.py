"""Gin on the move advisor: the public state (``state``), fast exact hands
(``hands``, ``scoring``), guesses at the hidden cards (``worlds``), the rest of
a hand played out (``simulate``) and the advisor (``advisor``)."""
