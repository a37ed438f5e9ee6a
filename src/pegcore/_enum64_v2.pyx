# Whole-board enumeration, built with popcnt (x86-64-v2) for x86-64 processors that have
# it (see _enum_impl.pxi); pegsolver loads it only after checking the processor.
include "_enum_impl.pxi"
