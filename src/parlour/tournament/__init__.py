"""Tournaments: rotating entrants over seats, ratings, per-game metrics, reports, export."""
