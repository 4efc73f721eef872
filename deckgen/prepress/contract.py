"""A vendor profile as a contract: the deck is made to it, and every rule is checked.

Takes a loaded deck and a :class:`~deckgen.prepress.presets.VendorPreset`; gives

- :func:`fit_deck`: the deck with the vendor's card size, bleed and corner radius (and
  at least its safe zone), so that ``--preset thegamecrafter`` makes 825 x 1125 px
  cards whatever size the deck file names; what changed is said in one line;
- :func:`enforce`: the preflight's findings that break one of the vendor's rules,
  named by rule. Without ``force`` they stop the build with a :class:`ContractError`
  (exit code 2; nothing is written, the build is staged); with ``force`` each becomes
  a warning that says it was overridden.

The rules (each a key of the preset file): card size, ``bleed_mm``, ``safe_mm``,
``dpi`` (picture resolution), ``colour_space``, ``max_ink_percent``, ``pdfx`` (the
flavour is made, not checked here), ``min_text_pt``, ``min_reversed_text_pt``,
``min_line_pt``, fonts embedded, black text in black ink only, text contrast, ``marks_allowed``
(checked when the preset loads), ``deck_sizes`` (the deck is filled with blanks).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.errors import DeckgenError

if TYPE_CHECKING:
    from deckgen.deck.spec import LoadedDeck
    from deckgen.prepress.preflight import Finding, PreflightReport
    from deckgen.prepress.presets import VendorPreset
    from deckgen.progress import Reporter

RULES: dict[str, str] = {
    "card-size": "card size (card_width_mm x card_height_mm)",
    "bleed": "bleed_mm",
    "safe-margin": "safe_mm (nothing important outside the safe zone)",
    "low-dpi": "dpi (pictures at the vendor's resolution)",
    "rgb-in-cmyk": "colour_space (CMYK only)",
    "spot-colour": "colour_space (process colours only)",
    "boxes-missing": "page boxes (TrimBox and BleedBox)",
    "ink-over-limit": "max_ink_percent (total ink)",
    "font-not-embedded": "fonts embedded",
    "text-too-small": "min_text_pt",
    "reversed-text-too-small": "min_reversed_text_pt",
    "line-too-thin": "min_line_pt",
    "text-not-k-only": "black and grey text in black ink only",
    "line-not-k-only": "black and grey lines in black ink only",
    "low-contrast": "text that stands out from its ground (contrast)",
}
"""Preflight finding kinds that break a vendor's rule, with the rule's name."""


class ContractError(DeckgenError):
    """A deck that breaks a rule of the vendor it is built for."""


@dataclass(frozen=True)
class RuleBreak:
    """One rule of the vendor broken, with the findings that show it."""

    rule: str
    findings: tuple[Finding, ...]

    def text(self) -> str:
        first = self.findings[0].text()
        more = f" (and {len(self.findings) - 1} more)" if len(self.findings) > 1 else ""
        return f"{self.rule}: {first}{more}"

    def brief(self) -> str:
        """The rule and where it is broken, short: for the one error paragraph."""
        cards = list(dict.fromkeys(f.card for f in self.findings))
        where = cards[0] if len(cards) == 1 else f"{cards[0]} and {len(cards) - 1} more cards"
        message = self.findings[0].message
        fix = message.rsplit(": ", 1)[1] if ": " in message else ""
        return f"{self.rule} ({where}{': ' + fix if fix else ''})"


def fit_deck(deck: LoadedDeck, preset: VendorPreset) -> tuple[LoadedDeck, str | None]:
    """The deck made to the vendor's card: size, bleed, corner radius, safe zone."""
    card = deck.spec.card
    safe = max(card.safe_mm, preset.safe_mm)
    same = (
        abs(deck.width_mm - preset.card_width_mm) < 0.01
        and abs(deck.height_mm - preset.card_height_mm) < 0.01
        and abs(card.bleed_mm - preset.bleed_mm) < 0.001
        and abs(card.corner_radius_mm - preset.corner_radius_mm) < 0.001
        and safe == card.safe_mm
    )
    if same or not preset.card_size_required:
        return deck, None
    new_card = card.model_copy(
        update={
            "bleed_mm": preset.bleed_mm,
            "corner_radius_mm": preset.corner_radius_mm,
            "safe_mm": safe,
        }
    )
    spec = deck.spec.model_copy(update={"card": new_card})
    fitted = dataclasses.replace(
        deck, spec=spec, width_mm=preset.card_width_mm, height_mm=preset.card_height_mm
    )
    changes = []
    if (
        abs(deck.width_mm - preset.card_width_mm) >= 0.01
        or abs(deck.height_mm - preset.card_height_mm) >= 0.01
    ):
        changes.append(
            f"{preset.card_width_mm:g} x {preset.card_height_mm:g} mm instead of "
            f"the deck file's {deck.width_mm:g} x {deck.height_mm:g} mm"
        )
    if abs(card.bleed_mm - preset.bleed_mm) >= 0.001:
        changes.append(
            f"{preset.bleed_mm:g} mm bleed instead of the deck file's {card.bleed_mm:g} mm"
        )
    if abs(card.corner_radius_mm - preset.corner_radius_mm) >= 0.001:
        changes.append(
            f"{preset.corner_radius_mm:g} mm corners instead of the deck file's "
            f"{card.corner_radius_mm:g} mm"
        )
    if safe != card.safe_mm:
        changes.append(f"{safe:g} mm safe margin instead of the deck file's {card.safe_mm:g} mm")
    note = f"cards re-made for {preset.name}: " + ", ".join(changes)
    return fitted, note


def rule_breaks(report: PreflightReport) -> list[RuleBreak]:
    """The findings that break a vendor rule, grouped by rule (in :data:`RULES` order)."""
    out = []
    for kind, rule in RULES.items():
        found = tuple(report.by_kind(kind))
        if found:
            out.append(RuleBreak(rule, found))
    return out


def enforce(
    report: PreflightReport, preset: VendorPreset, *, force: bool, reporter: Reporter
) -> list[RuleBreak]:
    """Stop on a broken rule (or, with ``force``, warn that it was overridden)."""
    broken = rule_breaks(report)
    if not broken:
        return []
    if force:
        for item in broken:
            reporter.warn(f"--force: {preset.name} rule broken, files made anyway: {item.text()}")
        return broken
    rules = "; ".join(item.brief() for item in broken)
    raise ContractError(
        f"the deck breaks {len(broken)} rule{'s' if len(broken) > 1 else ''} of "
        f"{preset.name}: {rules}; the preflight warnings give the details",
        where=f"preset {preset.name}",
        fix="change the deck so that it meets each rule, or build with --force to make "
        "the files anyway (the vendor may reject them)",
    )
