# Whole-board enumeration, built for any processor (see _enum_impl.pxi).
include "_enum_impl.pxi"
