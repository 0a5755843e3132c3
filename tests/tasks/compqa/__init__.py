"""Tests of one task (mirrors src/maieutic/tasks/)."""
