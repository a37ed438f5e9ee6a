"""Build the compiled core; everything else about the package lives in pyproject.toml."""
import os
import platform
import sys

# Checked before anything else, so that the refusal is the one message a user sees.
if not sys.platform.startswith("linux"):
    sys.exit(f"pegsolver builds only on Linux: its enumeration core grows its tables with mremap, "
             f"a Linux call. This is {platform.system() or sys.platform} (sys.platform {sys.platform!r}).")

from Cython.Build import cythonize  # noqa: E402
from setuptools import Extension, setup  # noqa: E402

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

# x86-64 gets two more builds of the enumeration: with popcnt (x86-64-v2), and with popcnt
# and BMI2 (its pext finds a position's legal jumps without unpredictable branches, but is
# microcoded and slow on AMD before Zen 3). pegsolver loads one the processor has, by
# timing each (pegsolver.engine.core.enum_core); no build needs -march=native.
X86 = platform.machine().lower() in ("x86_64", "amd64")

extensions = [
    Extension("pegcore._search64", ["src/pegcore/_search64.pyx"], extra_compile_args=cflags),
    Extension("pegcore._search128", ["src/pegcore/_search128.pyx"], extra_compile_args=cflags),
    Extension("pegcore._enum64", ["src/pegcore/_enum64.pyx"], extra_compile_args=cflags),
]
if X86:
    extensions.append(Extension("pegcore._enum64_v2", ["src/pegcore/_enum64_v2.pyx"],
                                extra_compile_args=cflags + ["-mpopcnt"]))
    extensions.append(Extension("pegcore._enum64_bmi2", ["src/pegcore/_enum64_bmi2.pyx"],
                                extra_compile_args=cflags + ["-mpopcnt", "-mbmi2"]))

# Both steps use every CPU: the five modules are large C files, and a serial build was most
# of an install's two minutes.
jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
setup(ext_modules=cythonize(extensions, compiler_directives=directives, nthreads=jobs),
      options={"build_ext": {"parallel": jobs}})
