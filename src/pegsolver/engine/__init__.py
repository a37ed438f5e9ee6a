"""The engine: the one door to the compiled core (``core``), the compile step, the searches
and their portfolio, the level-by-level enumeration, and the pure-Python reference."""
