"""The Indian rummy arena (``indian13``, ``indian21``): deals between bots,
rotated over the seats.

* ``variants`` -- what tells the two games apart, as data;
* ``melds`` -- shows, least counts and value cards of our own;
* ``referee`` -- ``IndianDeal``: one deal, every action checked;
* ``players`` -- the bots and their registry;
* ``runner`` -- the deal loop and the games' figures over rotated deals;
  ``report`` -- the Markdown table.
"""
