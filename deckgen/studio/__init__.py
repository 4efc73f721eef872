"""deckgen studio: the local web configurator for a deck, with a live preview.

A small ASGI app (Starlette, served by uvicorn) on 127.0.0.1 that edits ONE deck file
in ONE project folder. The pieces, one module each::

    project.py   the deck being edited: its folder, its deck data, autosave, pictures
    tomltext.py  deck data -> TOML text (an unchanged deck keeps its original bytes)
    slots.py     the picture slots (value 1..N, cover, logo, back, imprint) and their boxes
    uploads.py   pictures from the browser: streamed to disk with a limit, checked
    previews.py  one card as PNG through the deck code, cached by what it depends on
    printing.py  the print files as ``deck build`` writes them, zipped, with the preflight
    security.py  session token, Host and Origin checks (DNS rebinding, cross-site),
                 security headers on every response
    connections.py  header and body timeouts, a connection limit, one log line per event
    i18n.py      German or English from Accept-Language (gettext catalog ``studio``)
    app.py       the routes; server.py runs it (``deckgen studio``)

The studio builds on the deck's public functions (load a deck, render cards, build,
preflight); it never draws anything itself.
"""
