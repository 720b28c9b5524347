"""The `kb` command line: entry point (`cli.main`), shared helpers (`cli.common`), one
module per subcommand (`cli.commands`). Top floor: imports pipeline lazily, nothing
imports it."""
