"""One module per `kb` subcommand; each defines `register(subparsers)`."""
