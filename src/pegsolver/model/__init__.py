"""The model: board shapes, holes and jumps, notation, board text, goals, the catalogue of
variants and board files. Pure data; nothing here loads the compiled core."""
