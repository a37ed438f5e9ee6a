"""Compiled search core of pegsolver (Cython over bitboards).

One extension module per bitboard width: ``_search64`` handles boards of up to 64
holes. Its surface is plain ints and arrays in, a dict of results and counters out; the
Python layer in :mod:`pegsolver` builds the arrays and checks what comes back.
"""
