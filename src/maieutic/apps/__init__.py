"""Applications: commands that compose several tasks (``maieutic ask``, ``maieutic
demo``). They are not tasks; the command line mounts them beside its core commands.
Each module imports the tasks it uses only when its command runs, so that listing
the commands stays fast."""
