"""Exports of a built deck for uses other than print.

- :mod:`.tts`: a Tabletop Simulator saved object (face sheets, back, JSON) for
  playtesting online, as a ``deck build`` output step.
- :mod:`.steps`: which exports a build runs (the options and the vendor preset).
- :mod:`.showcase`: a marketing picture of the deck (a fanned hand, a domino line on a
  table, the box cover).

Both draw from the real card renders (:mod:`.cardimages`: the pages of ``cards.pdf``
and ``back.pdf`` rasterised and cut to the card), never from a second drawing.
"""
