"""``rolecat``: its parser and commands, the reporters, the scaffolds and ``convert``."""
