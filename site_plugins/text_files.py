"""Files MkDocs writes from a catalog's own strings, encoded only as each is written: each role's
instructions, the role in each tool's format, and a build's raw files written anew."""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from build_tools.exports import Export
from build_tools.wire.raw_tree import Published
from site_plugins.pages import MarkedText
from site_plugins.preview import GeneratedFile

Encoded = Export | Published
"""What an :class:`EncodedFile` is made from."""


class _MadeWhenCopied(GeneratedFile):
    """A file whose bytes are made as MkDocs copies it, from what it holds until then."""

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


class MarkedTextFile(_MadeWhenCopied):
    """A ``.txt`` file: a byte-order mark and the text, made when MkDocs copies the file.

    MkDocs writes every other file before the first page and keeps their contents meanwhile; the
    instructions of a catalog of 5,000 roles are a hundred megabytes more as bytes, held at the
    build's peak. Here they stay the catalog's strings until each file is written.
    """

    @classmethod
    def of(cls, config: MkDocsConfig, src_uri: str, content: MarkedText) -> MarkedTextFile:
        file = cls.generated(config, src_uri, content=content.text)
        assert isinstance(file, MarkedTextFile)
        return file

    @property
    def content_bytes(self) -> bytes:
        content = self._content
        return MarkedText(content).encoded() if isinstance(content, str) else super().content_bytes

    @content_bytes.setter
    def content_bytes(self, value: bytes) -> None:
        self._content = value
        self.abs_src_path = None


class EncodedFile(_MadeWhenCopied):
    """A role in a tool's format beside its page, or a build's raw file of the wire format its
    source is not in: made into bytes when MkDocs copies it, as the plain text is.

    Two of the tools' formats end in ``.md``, which MkDocs would take for pages to render: these
    are files to download, written as they are."""

    _made: Encoded | None = None

    @classmethod
    def of(cls, config: MkDocsConfig, src_uri: str, made: Encoded) -> EncodedFile:
        file = cls.generated(config, src_uri, content=b"")
        assert isinstance(file, EncodedFile)
        file._made = made
        return file

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
