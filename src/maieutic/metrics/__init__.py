"""Text metrics shared by the tasks: similarity matching and diversity."""
