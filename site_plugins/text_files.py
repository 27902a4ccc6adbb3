"""Plain-text files MkDocs writes from a catalog's own strings, encoded only as each is written:
each role's instructions, and the role in each tool's format."""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig

from build_tools.exports import Export
from site_plugins.pages import MarkedText
from site_plugins.preview import GeneratedFile


class _MadeWhenCopied(GeneratedFile):
    """A file whose bytes are made as MkDocs copies it, from what it holds until then."""

    def copy_file(self, dirty: bool = False) -> None:
        if dirty and not self.is_modified():
            return
        os.makedirs(os.path.dirname(self.abs_dest_path), exist_ok=True)
        with open(self.abs_dest_path, "wb") as output:
            output.write(self.content_bytes)


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


class ExportFile(_MadeWhenCopied):
    """A role in a tool's format, beside its page: made into bytes when MkDocs copies it, as the
    plain text is.

    Two of the formats end in ``.md``, which MkDocs would take for pages to render: these are
    files to download, written as they are."""

    _export: Export | None = None

    @classmethod
    def of(cls, config: MkDocsConfig, src_uri: str, export: Export) -> ExportFile:
        file = cls.generated(config, src_uri, content=b"")
        assert isinstance(file, ExportFile)
        file._export = export
        return file

    def is_documentation_page(self) -> bool:
        return False

    @property
    def content_bytes(self) -> bytes:
        return self._export.encoded() if self._export is not None else super().content_bytes

    @content_bytes.setter
    def content_bytes(self, value: bytes) -> None:
        self._export = None
        self._content = value
        self.abs_src_path = None
