"""Tests of the tasks, one folder each (mirrors src/maieutic/tasks/)."""
