"""Comparative question answering (CompQA): human score files and their agreement."""
