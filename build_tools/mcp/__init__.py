"""The MCP prompts server (``rolecat mcp``): a checked catalog, local or read from a base URL as
the server reads it, offered to an MCP client as one prompt per role.

Only :mod:`build_tools.mcp.server` imports the MCP SDK, and only ``rolecat mcp`` imports it: the
other commands never pay for it.
"""
