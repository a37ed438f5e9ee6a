"""Build the compiled core; everything else about the package lives in pyproject.toml."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PEGCORE_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
}
cflags = ["-O0", "-g"] if DEBUG else ["-O3"]
if os.environ.get("PEGCORE_NATIVE") == "1":  # opt-in only: never in a wheel
    cflags.append("-march=native")

extensions = [
    Extension("pegcore._search64", ["src/pegcore/_search64.pyx"], extra_compile_args=cflags),
    Extension("pegcore._search128", ["src/pegcore/_search128.pyx"], extra_compile_args=cflags),
    Extension("pegcore._enum64", ["src/pegcore/_enum64.pyx"], extra_compile_args=cflags),
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
