"""Test helpers shared across test packages: the example portfolio (`portfolio`), one-line
failure checks (`checks`), user-docs readers (`docs_helpers`), the MCP stdio client
(`mcp_stdio`) and loopback Confluence/Drive fakes (`import_fakes`)."""
