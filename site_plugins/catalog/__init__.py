"""The ``roles-catalog`` MkDocs plugin: the adapter between MkDocs and ``build_tools``.

``plugin`` translates MkDocs' events into the steps of one ``build.SiteBuild``; ``preview`` keeps
what ``mkdocs serve`` reuses between rebuilds; ``files`` makes MkDocs files of what a build adds;
``publishing`` swaps a finished site in atomically; ``theme`` and ``chrome`` fit Material.
"""
