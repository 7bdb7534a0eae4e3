"""Game packages. Each one holds its rules, content, scripted policies and prompt templates."""
