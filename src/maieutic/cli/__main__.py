"""``python -m maieutic.cli`` runs the command line."""

from maieutic.cli.main import main

main()
