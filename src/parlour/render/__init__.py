"""What the CLI and the web both show of a stored game: its annotated transcript (text,
markdown, HTML) and its board pictures, drawn the same way on every surface."""
