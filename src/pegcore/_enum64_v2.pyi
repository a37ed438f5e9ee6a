"""Whole-board enumeration over bitboards of one uint64, built with popcnt (x86-64 only;
load it only where ``cpu_has_popcnt()``): the same module as _enum64, built from the same
_enum_impl.pxi with other instructions, so its stubs are _enum64's."""
from pegcore._enum64 import *  # noqa: F403
