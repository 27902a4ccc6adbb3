"""Files MkDocs writes from a catalog's own strings, encoded only as each is written (see
:class:`EncodedFile`)."""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from build_tools.exports import Export
from build_tools.wire.raw_tree import Published
from site_plugins.pages import MarkedText
from site_plugins.preview import GeneratedFile

Encoded = MarkedText | Export | Published
"""What an :class:`EncodedFile` is made from: anything that makes its bytes with ``encoded()``."""


class EncodedFile(GeneratedFile):
    """A file whose bytes are made as MkDocs copies it, from what it holds until then: a role's
    instructions as plain text, the role in a tool's format, or a build's raw file of the wire
    format its source is not in.

    MkDocs writes every other file before the first page and keeps their contents meanwhile; the
    instructions of a catalog of 5,000 roles are a hundred megabytes more as bytes, held at the
    build's peak. Here they stay the catalog's strings until each file is written. Two of the
    tools' formats end in ``.md``, which MkDocs would take for pages to render: these are files
    to download, written as they are."""

    _made: Encoded | None = None

    @classmethod
    def of(cls, config: MkDocsConfig, src_uri: str, made: Encoded) -> EncodedFile:
        file = cls.generated(config, src_uri, content=b"")
        assert isinstance(file, EncodedFile)
        file._made = made
        return file

    def copy_file(self, dirty: bool = False) -> None:
        if dirty and not self.is_modified():
            return
        try:
            content = self.content_bytes
        except ValueError as error:  # bytes other than the check judged: one line, no site
            raise PluginError(f"roles-catalog: {error}") from None
        os.makedirs(os.path.dirname(self.abs_dest_path), exist_ok=True)
        with open(self.abs_dest_path, "wb") as output:
            output.write(content)

    def is_documentation_page(self) -> bool:
        return False

    @property
    def content_bytes(self) -> bytes:
        return self._made.encoded() if self._made is not None else super().content_bytes

    @content_bytes.setter
    def content_bytes(self, value: bytes) -> None:
        self._made = None
        self._content = value
        self.abs_src_path = None
