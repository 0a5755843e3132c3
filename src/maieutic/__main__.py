"""``python -m maieutic`` runs the command line."""

from maieutic.cli.main import main

main()
