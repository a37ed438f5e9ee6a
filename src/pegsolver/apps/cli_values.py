"""The types of the command line's option values: numbers quoted as typed in errors,
whole counts, and single-value options that refuse a different second value."""
from __future__ import annotations

import argparse
import re
from typing import Any


def number(text: str) -> float:
    """An option's number (argparse's type; its name makes "invalid number value: 'x'"); not
    one that rounds to 0 from a digit other than 0 (--seconds 1e-400 was 0, no limit)."""
    value = Typed(text)
    _not_rounded_to_zero(value.text, value)
    return value


def _not_rounded_to_zero(text: str, value: float) -> None:
    # 0 means "no limit" for several options: a tiny number written must not become it
    if value == 0 and any(ch in "123456789" for ch in re.split("[eE]", text.strip())[0]):
        raise argparse.ArgumentTypeError(f"{text.strip()} is too small: it rounds to 0")


def whole(text: str) -> int:
    """An option's count of nodes or positions: an integer, also typed as 1e6 or 1_000_000
    (as --seconds takes 1e3); 1.5 or inf is argparse's "invalid whole number value", and
    1e19 or more is past what a count holds (said so, quoting the input, not the float's digits)."""
    try:
        return int(text)
    except ValueError:
        value = float(text)   # float's own ValueError for words: argparse names the value
        _not_rounded_to_zero(text, value)   # a trial's bench --nodes 1e-400 ran with no node limit
        if not value.is_integer():
            raise ValueError(text) from None
        if value >= 2.0 ** 63:
            raise argparse.ArgumentTypeError(f"{text} is past the largest count the core's 64-bit counters "
                                             f"hold, {2 ** 63 - 1:,}") from None
        return int(value)


whole.__name__ = "whole number"   # argparse's error names the type by it


class Once(argparse.Action):
    """An option that takes one value and refuses a different second one: argparse keeps
    the last silently, so ``--svg a.svg --svg b.svg`` never wrote a.svg and ``--strategy seed
    --strategy guided`` ran guided. Every single-value option of a command is one (see
    CommandParser); the same value given twice is taken once."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given: dict[str, Any] = namespace.__dict__.setdefault("_given_once", {})
        if option_string is not None and self.dest in given and given[self.dest] != values:
            parser.error(f"argument {option_string}: given twice ({given[self.dest]} and {values}); "
                         "it takes one value")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


class Typed(float):
    """A number read from the command line that prints as it was typed, so that an error
    quotes the input (``1e999``, ``-5``), not the float it became (``inf``, ``-5.0``)."""

    text: str

    def __new__(cls, text: str) -> Typed:
        value = super().__new__(cls, text)   # float's own ValueError: argparse names the value
        value.text = text.strip()
        return value

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return float.__format__(self, spec) if spec else self.text
