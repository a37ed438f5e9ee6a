"""Proofs of impossibility made before any search: position classes, pagoda functions, and
the obstacle checks that apply them to a problem."""
