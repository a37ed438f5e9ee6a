"""Front ends: the command line, the game, SVG drawings, the bench and its report, and the
replay of solutions written by people. They parse and print; the work is done below."""
