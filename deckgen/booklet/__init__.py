"""Rule booklets: a rules file rendered into a printed booklet in German or English.

Pipeline (one module per stage): :mod:`.content` (rules file + facts -> a
:class:`~.model.Booklet`), :mod:`.html` (jinja2 templates -> HTML), :mod:`.pdf`
(WeasyPrint -> PDF, through the safe URL fetcher of :mod:`.fetcher`),
:mod:`.imposition` (saddle-stitch sheets). Diagrams come from :mod:`.diagram`,
interface strings from the gettext catalogs of :mod:`.i18n`.

Nothing heavy is imported here: WeasyPrint loads only when a PDF is made.
"""

from __future__ import annotations
