"""Build the compiled core; everything else about the package lives in pyproject.toml."""
import os
import platform

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

# x86-64 gets a second build of the enumeration with BMI2 (its pext finds a position's
# legal jumps without unpredictable branches), loaded only where the processor has it
X86 = platform.machine().lower() in ("x86_64", "amd64")

extensions = [
    Extension("pegcore._search64", ["src/pegcore/_search64.pyx"], extra_compile_args=cflags),
    Extension("pegcore._search128", ["src/pegcore/_search128.pyx"], extra_compile_args=cflags),
    Extension("pegcore._enum64", ["src/pegcore/_enum64.pyx"], extra_compile_args=cflags),
]
if X86:
    extensions.append(Extension("pegcore._enum64_bmi2", ["src/pegcore/_enum64_bmi2.pyx"],
                                extra_compile_args=cflags + ["-mbmi2"]))

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
