"""Seats: who answers decisions (human, scripted, random, LLM) behind one protocol."""

from parlour.seats.base import Seat
from parlour.seats.random_seat import RandomSeat
from parlour.seats.scripted import ScriptedSeat

__all__ = ["RandomSeat", "ScriptedSeat", "Seat"]
