"""Embedding a prepared picture in a reportlab PDF exactly once.

Takes a canvas and a :class:`~deckgen.deck.pictures.PreparedPicture`; gives the name of
a form XObject (a 1 x 1 unit square holding the image) that every card showing the
picture draws with ``doForm``. Opaque pictures go in as their JPEG bytes unchanged
(DCTDecode); transparent ones as Flate data with a soft mask. ASCII85 is switched off
for every stream (it only makes files larger): see :func:`binary_streams`.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

from deckgen.deck.pictures import PreparedPicture


@contextlib.contextmanager
def binary_streams() -> Iterator[None]:
    """Switch reportlab's ASCII85 stream encoding off for the block (it only adds size)."""
    from reportlab import rl_config

    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = old


def ensure_picture_form(canvas: Any, prep: PreparedPicture) -> str:
    """Define the picture's form on first use; return its name."""
    name = f"Pic{prep.key}"
    if canvas.hasForm(name):
        return name
    from reportlab.lib.utils import ImageReader

    reader = ImageReader(io.BytesIO(prep.data)) if prep.kind == "jpeg" else ImageReader(prep.image)
    with binary_streams():
        canvas.beginForm(name, 0, 0, 1, 1)
        canvas.drawImage(reader, 0, 0, 1, 1, mask="auto")
        canvas.endForm()
    return name
