"""Game content as data: ``<game>/*.json`` (read by ``domain.kernel.content``) and each game's ``RULINGS.md``.

A package so that the content ships in the wheel as package data and is found through the package."""
