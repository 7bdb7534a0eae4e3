"""Evaluation harnesses: play many games, score a seat kind, report with intervals and plots."""
