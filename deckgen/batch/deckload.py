"""A row's deck as it is printed: validated deck data plus the short rules it names.

The one place the batch turns an :class:`~deckgen.batch.orders.Order` into a
:class:`~deckgen.deck.spec.LoadedDeck`, used both when validating (in the process that
reads the sheet) and when building (in a worker). Like
:func:`deckgen.product.load_printed_deck` it hands the deck the short rules text of a
rules file named in ``imprint.rules``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.batch.order import Order
    from deckgen.batch.settings import BatchSettings
    from deckgen.deck.spec import LoadedDeck


def load_order_deck(order: Order, settings: BatchSettings) -> LoadedDeck:
    """Validate the row's deck data and put the short rules it names on its imprint."""
    from deckgen.booklet.shortrules import imprint_rules_for
    from deckgen.deck.spec import deck_from_data

    deck = deck_from_data(order.data, path=order.deck_path, allow_outside=settings.allow_outside)
    text = imprint_rules_for(deck)
    return deck if text is None else deck.with_imprint_rules(text)
